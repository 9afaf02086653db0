/**
 * The OpenAPI documents (v2 as JSON and as gnostic protobuf, v3 per
 * group-version) built from the catalog: loaded by the OpenAPI service when
 * `/openapi/*` is first asked, never on the path to the worker's first
 * response (decision 0070).
 */

export { buildV2Document, buildV3Documents } from './documents';
export { encodeSwaggerDocument } from './gnostic';
