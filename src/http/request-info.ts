/**
 * Request info: what a request addresses and which verb it is, decoded from
 * the method and path by the real server's rules — `/api/v1/...` for the
 * core group, `/apis/<group>/<version>/...` for named groups, the
 * `namespaces/<ns>/` infix, `<resource>/<name>/<subresource>`, the legacy
 * `/watch/` prefix, and GET on a collection being list or watch.
 */

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

/** Go's strconv-free bool query parsing as the real server does it: absent false; '', anything but 'false'/'0' true. */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  if (!query.has(name)) return false;
  const v = (query.get(name) ?? '').toLowerCase();
  return v !== 'false' && v !== '0';
}

export function parseRequestInfo(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const m = method.toUpperCase();
  const segments = path.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
  const nonResource: NonResourceRequestInfo = { isResourceRequest: false, path, verb: m.toLowerCase() };
  if (segments.some((s) => s === '')) return nonResource;

  let parts = segments.map(decodeSegment);
  if (parts.includes('\u0000')) return nonResource;
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
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1] ?? '';
      if (parts.length > 2 && !namespaceSubresources.has(parts[2] ?? '')) parts = parts.slice(2);
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
    resource,
    name,
    subresource,
    parts,
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '\u0000';
  }
}
