/**
 * The typed API client: path building, discovery, CRUD, patch and watch over
 * any `fetch`. Used by the UI and by controllers; imports only `src/api` types.
 */

export {
  createClient,
  type ApiClient,
  type ApiResponse,
  type ClientOptions,
  type SendOptions,
  type FetchFunction,
  type ObjectRef,
  type PatchContentType,
} from './client';
export {
  ApiError,
  errorFromResponse,
  explanationFromHeaders,
  isStatus,
  sandboxExplainHeader,
} from './errors';
export { parseWarnings } from './warnings';
export {
  defaultTable,
  isTable,
  TABLE_ACCEPT,
  type Table,
  type TableColumnDefinition,
  type TableRow,
} from './table-types';
export { listWatch, type ListWatchHandlers, type ListWatchOptions } from './list-watch';
export {
  groupVersionPath,
  parseApiVersion,
  resourcePath,
  withQuery,
  type QueryParams,
  type ResourceRef,
} from './paths';
export type * from './discovery-types';
