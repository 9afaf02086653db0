/**
 * What the request console composes — method, path, query parameters,
 * headers, content type, body — how a logged request becomes one again
 * (the "Open in console" of the request log), and how a link's parameters
 * fill it (a lesson step's "Console with the request").
 */

import { PROFILES } from '../../machinery/naming';

export type Row = [string, string];

export interface Composed {
  method: string;
  path: string;
  query: Row[];
  headers: Row[];
  contentType: string;
  body: string;
}

export const contentTypes = [
  'application/json',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/yaml',
  'application/x-ndjson',
];

export const acceptPresets: { label: string; value: string }[] = [
  { label: 'JSON', value: 'application/json' },
  {
    label: 'Table',
    value: `${PROFILES.orch.tableMediaType}, ${PROFILES.kubernetes.tableMediaType}, application/json`,
  },
  { label: 'YAML', value: 'application/yaml' },
  {
    label: 'Protobuf',
    value: `${PROFILES.orch.protobufMediaType}, ${PROFILES.kubernetes.protobufMediaType}, application/json`,
  },
];

export const emptyComposed: Composed = {
  method: 'GET',
  path: '/api/v1/namespaces',
  query: [],
  headers: [['Accept', 'application/json']],
  contentType: 'application/json',
  body: '',
};

/** Splits `path?query` into the path and query rows. */
export function splitPath(pathAndQuery: string): { path: string; query: Row[] } {
  const question = pathAndQuery.indexOf('?');
  if (question < 0) return { path: pathAndQuery, query: [] };
  return {
    path: pathAndQuery.slice(0, question),
    query: [...new URLSearchParams(pathAndQuery.slice(question + 1))],
  };
}

/**
 * The request a link describes: `method` and `path` (with its query), and optionally `body`, `contentType`
 * and `headers` (`Name: value` lines, added to the default Accept; an `Accept` line replaces it).
 * Undefined when the link names no path.
 */
export function fromLinkParams(params: Readonly<Record<string, string>>): Composed | undefined {
  const given = params['path'];
  if (given === undefined) return undefined;
  const { path, query } = splitPath(given);
  const extra: Row[] = (params['headers'] ?? '')
    .split('\n')
    .map((line): Row | undefined => {
      const colon = line.indexOf(':');
      return colon <= 0 ? undefined : [canonical(line.slice(0, colon).trim()), line.slice(colon + 1).trim()];
    })
    .filter((row): row is Row => row !== undefined);
  const replaced = new Set(extra.map(([name]) => name.toLowerCase()));
  return {
    ...emptyComposed,
    method: (params['method'] ?? 'GET').toUpperCase(),
    path,
    query,
    headers: [...emptyComposed.headers.filter(([name]) => !replaced.has(name.toLowerCase())), ...extra],
    contentType: params['contentType'] ?? emptyComposed.contentType,
    body: params['body'] ?? '',
  };
}

/** What of a logged request (request-log.ts's LoggedRequest) the console reopens; named here so this module stays DOM-free. */
export interface ReopenedRequest {
  method: string;
  path: string;
  requestHeaders: [string, string][];
  requestBody?: string;
}

export function fromLogged(entry: ReopenedRequest): Composed {
  const { path, query } = splitPath(entry.path);
  const contentType = entry.requestHeaders.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return {
    method: entry.method,
    path,
    query,
    headers: entry.requestHeaders
      .filter(([name]) => name.toLowerCase() !== 'content-type')
      .map(([n, v]) => [canonical(n), v]),
    contentType: contentType ?? 'application/json',
    body: entry.requestBody ?? '',
  };
}

/** The full path with the query rows (empty names left out). */
export function pathWithQuery(composed: Composed): string {
  const { path, query: inline } = splitPath(composed.path);
  const search = new URLSearchParams([...inline, ...composed.query.filter(([name]) => name.trim() !== '')]);
  const text = search.toString().replace(/=(&|$)/g, '$1');
  return text === '' ? path : `${path}?${text}`;
}

export function hasBody(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}
