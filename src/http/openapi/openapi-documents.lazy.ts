/**
 * The OpenAPI documents (v2 as JSON and as gnostic protobuf, v3 per
 * group-version) built from the catalog: loaded by the OpenAPI service when
 * `/openapi/*` is first asked, never on the path to the worker's first
 * response (decisions 0070 and 0073).
 */

export { buildV2Document, buildV3Documents } from './documents';
export { encodeSwaggerDocument } from './gnostic';
