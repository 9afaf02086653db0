/**
 * What the request console composes — method, path, query parameters,
 * headers, content type, body — and how a logged request becomes one again
 * (the "Open in console" of the request log).
 */

import type { LoggedRequest } from '../lib/request-log';
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

export function fromLogged(entry: LoggedRequest): Composed {
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
