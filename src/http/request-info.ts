/**
 * Request info: what a request addresses and which verb it is, decoded from
 * the method and path by the real server's rules — `/api/v1/...` for the
 * core group, `/apis/<group>/<version>/...` for named groups, the
 * `namespaces/<ns>/` infix, `<resource>/<name>/<subresource>`, the legacy
 * `/watch/` prefix, and GET on a collection being list or watch.
 *
 * Like the real server, the path is never re-resolved: `.` and `..` are
 * ordinary segments (a name `..` is refused, never a step up the tree), and
 * the whole path is percent-decoded before it is split, so `%2f` separates
 * segments as in Go's `URL.Path`. WHATWG URL parsing removes dot segments
 * (`%2e` included) before anyone sees the path, so a host holding the raw
 * request target marks them (`machinery/decode/request-target`) and this
 * parser reads the marks back. The Node host does; the browser host cannot
 * (the page's fetch normalizes the URL before the service worker sees it),
 * so there a dot segment is resolved by the browser, as for any other site.
 */

import { noResourceFields } from '../auth/authorizer';
import { badRequest, type StatusError } from '../machinery/errors';
import { unmarkDotSegment } from '../machinery/decode/request-target';
import { queryFlag } from '../machinery/query-bool';

export { escapeDotSegments } from '../machinery/decode/request-target';

export type Verb =
  'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'proxy';

export interface ResourceRequestInfo {
  isResourceRequest: true;
  path: string;
  verb: Verb;
  /** `api` or `apis`. */
  apiPrefix: 'api' | 'apis';
  group: string;
  version: string;
  /** Namespace from the path ('' when none). For `namespaces/<name>` it is the name itself, as in the real server. */
  namespace: string;
  /**
   * Whether the path addressed a resource inside a namespace (`namespaces/<ns>/<resource>…`): the
   * `namespaces/<ns>/` infix was consumed. False for `namespaces/<name>[/status|/finalize]`, where the
   * namespace is the object itself. Only namespaced resources have routes under the infix; a
   * cluster-scoped one (namespaces included: `namespaces/own/namespaces/victim`) has none there.
   */
  namespaceInPath: boolean;
  resource: string;
  name: string;
  subresource: string;
  /** Path segments from the resource on. */
  parts: string[];
}

export interface NonResourceRequestInfo {
  isResourceRequest: false;
  path: string;
  /** Lower-case HTTP method as verb (get, post, ...). */
  verb: string;
}

export type RequestInfo = ResourceRequestInfo | NonResourceRequestInfo;

const namespaceSubresources = new Set(['status', 'finalize']);

/**
 * Request infos by method and path, kept (frozen, shared by every request that asks the same) when they do not
 * depend on the query: every request but a GET of a collection (list or watch). A client's steady traffic asks
 * the same few paths over and over; past the bound the map starts over.
 */
const byPath = new Map<string, RequestInfo>();
const maxByPath = 1024;

/**
 * A request's fields as authorization and the audit policy both match them (everything but who asks): a resource
 * request's group, version, resource, subresource, namespace and name, a non-resource request's path. Made once
 * per request info (a kept one is shared by every request to its path) and frozen.
 */
export interface RequestAttributes {
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly path: string;
}

const attributesByInfo = new WeakMap<RequestInfo, RequestAttributes>();

export function requestAttributesOf(info: RequestInfo): RequestAttributes {
  let attributes = attributesByInfo.get(info);
  if (attributes !== undefined) return attributes;
  attributes = Object.freeze(
    info.isResourceRequest
      ? {
          verb: info.verb,
          resourceRequest: true,
          apiGroup: info.group,
          apiVersion: info.version,
          resource: info.resource,
          subresource: info.subresource,
          namespace: info.namespace,
          name: info.name,
          path: info.path,
        }
      : { verb: info.verb, resourceRequest: false, ...noResourceFields, path: info.path },
  );
  attributesByInfo.set(info, attributes);
  return attributes;
}

export function parseRequestInfo(method: string, url: URL): RequestInfo {
  const key = `${method}\u0000${url.pathname}`;
  const known = byPath.get(key);
  if (known !== undefined) return known;
  const info = parsePath(method, url);
  if (info.isResourceRequest && info.name === '' && (info.verb === 'list' || info.verb === 'watch'))
    return info;
  if (byPath.size >= maxByPath) byPath.clear();
  if (info.isResourceRequest) Object.freeze(info.parts);
  byPath.set(key, Object.freeze(info));
  return info;
}

function parsePath(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const m = method.toUpperCase();
  const nonResource: NonResourceRequestInfo = { isResourceRequest: false, path, verb: m.toLowerCase() };
  // Go's request info splits the decoded path (`URL.Path`): an encoded slash separates segments too.
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return nonResource;
  }
  const segments = decoded.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
  if (segments.some((s) => s === '')) return nonResource;

  let parts = segments.map(unmarkDotSegment);
  if (parts.some((s) => s.includes('\u0000'))) return nonResource;
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource;
  parts = parts.slice(1);

  let group = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return nonResource; // /apis, /apis/<g>, /apis/<g>/<v>: discovery
    group = parts[0] ?? '';
    parts = parts.slice(1);
  } else if (parts.length < 2) {
    return nonResource; // /api, /api/v1: discovery
  }
  const version = parts[0] ?? '';
  parts = parts.slice(1);

  let verb: Verb;
  switch (m) {
    case 'POST':
      verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      verb = 'get';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = 'delete';
      break;
    default:
      verb = 'get';
      // Unknown methods still address a resource; the handler answers 405.
      break;
  }

  let legacyWatch = false;
  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    if (parts.length < 2) return nonResource;
    if (parts[0] === 'watch') legacyWatch = true;
    else verb = 'proxy';
    parts = parts.slice(1);
  }

  let namespace = '';
  let namespaceInPath = false;
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1] ?? '';
      if (parts.length > 2 && !namespaceSubresources.has(parts[2] ?? '')) {
        parts = parts.slice(2);
        namespaceInPath = true;
      }
    }
  }

  const resource = parts[0] ?? '';
  const name = parts[1] ?? '';
  const subresource = parts.length >= 3 ? (parts[2] ?? '') : '';

  if (legacyWatch && verb === 'get') verb = 'watch';
  else if (name === '' && verb === 'get') verb = queryFlag(url.searchParams, 'watch') ? 'watch' : 'list';
  else if (name === '' && verb === 'delete') verb = 'deletecollection';

  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    group,
    version,
    namespace,
    namespaceInPath,
    resource,
    name,
    subresource,
    parts,
  };
}

/** Go's `path.IsValidPathSegmentName`: what a name taken from a path may not be or contain. */
export function pathSegmentNameProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const problems: string[] = [];
  for (const bad of ['/', '%']) if (name.includes(bad)) problems.push(`may not contain '${bad}'`);
  return problems;
}

/**
 * The real server's refusal of a name from the path that could not be a
 * storage key (`.`, `..`, or containing `/` or `%`): 400 `Name parameter
 * invalid: "..": may not be '..'`, raised where it builds the key, i.e.
 * after routing found the resource (an unknown path is still 404).
 */
export function pathNameError(info: ResourceRequestInfo): StatusError | undefined {
  const name = info.name;
  // Most names are fine: told without building the list of problems.
  if (name === '' || (name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%')))
    return undefined;
  const problems = pathSegmentNameProblems(info.name);
  if (problems.length === 0) return undefined;
  return badRequest(`Name parameter invalid: ${JSON.stringify(info.name)}: ${problems.join(';')}`);
}
