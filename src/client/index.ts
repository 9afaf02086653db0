/**
 * The typed API client: path building, discovery, CRUD, patch and watch over
 * any `fetch`. Used by the UI and by controllers; imports only `src/api` types.
 */

export {
  createClient,
  type ApiClient,
  type ClientOptions,
  type FetchFunction,
  type ObjectRef,
  type PatchContentType,
} from './client';
export { ApiError, isStatus } from './errors';
export {
  groupVersionPath,
  parseApiVersion,
  resourcePath,
  withQuery,
  type QueryParams,
  type ResourceRef,
} from './paths';
export type * from './discovery-types';
