/**
 * Path building for the API's URL layout: the core group lives under
 * `/api/v1`, named groups under `/apis/<group>/<version>`; namespaced
 * resources add `namespaces/<ns>`, then the resource, the name and a
 * subresource. One function so that the UI and controllers never spell URLs.
 */

/** Which object or collection a request addresses. An empty `group` is the core group. */
export interface ResourceRef {
  group: string;
  version: string;
  resource: string;
  /** Set for namespaced resources; unset addresses the cluster scope (or all namespaces for a list). */
  namespace?: string;
  /** Set to address one object; unset addresses the collection. */
  name?: string;
  subresource?: string;
}

/** Query parameters as the API names them; `undefined` values are left out. */
export type QueryParams = Record<string, string | number | boolean | undefined>;

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function groupVersionPath(group: string, version: string): string {
  return group === '' ? `/api/${seg(version)}` : `/apis/${seg(group)}/${seg(version)}`;
}

/** The path of an object (when `name` is set) or of a collection. */
export function resourcePath(ref: ResourceRef): string {
  let path = groupVersionPath(ref.group, ref.version);
  if (ref.namespace !== undefined && ref.namespace !== '') path += `/namespaces/${seg(ref.namespace)}`;
  path += `/${seg(ref.resource)}`;
  if (ref.name !== undefined) {
    path += `/${seg(ref.name)}`;
    if (ref.subresource !== undefined) path += `/${seg(ref.subresource)}`;
  } else if (ref.subresource !== undefined) {
    throw new TypeError(`a subresource (${ref.subresource}) needs an object name`);
  }
  return path;
}

/** Appends a query string built from `params` (omitting undefined values). */
export function withQuery(path: string, params: QueryParams | undefined): string {
  if (params === undefined) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}

/** Splits an `apiVersion` such as `apps/v1` or `v1` into group and version. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

// Names are validated by the server; encoding only keeps a stray `/` or `?` from changing the route.
function seg(value: string): string {
  if (value === '') throw new TypeError('an empty path segment');
  return encodeURIComponent(value);
}
