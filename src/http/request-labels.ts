/**
 * The labels the real server's request metrics carry, derived from a
 * request's info: the verb as its CleanVerb spells it (`LIST`, `WATCH`,
 * `APPLY`, `POST`, …) and the scope (`cluster`, `namespace`, `resource`),
 * shared by `apiserver_request_total`, the duration histogram and the
 * long-running gauge. Every label has a bounded set of values: verbs come
 * from the real server's fixed list (anything else is `other`), and only
 * requests routed to a resource the server serves are labelled at all (see
 * `pipeline.ts`), so a made-up path never becomes a label value.
 */

import type { ResourceRequestInfo } from './request-info';
import type { LongRunningLabels, RequestLabels } from './server-context';

/** The verbs' label values; made once (every request's metrics read it). */
const byVerb: Readonly<Record<string, string>> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

export function cleanVerb(verb: string, contentType: string | null): string {
  if (verb === 'patch' && (contentType ?? '').startsWith('application/apply-patch')) return 'APPLY';
  return byVerb[verb] ?? (validVerbs.has(verb.toUpperCase()) ? verb.toUpperCase() : 'other');
}

/** The real server's `validRequestMethods`: the only verb label values besides `other`. */
const validVerbs = new Set([
  'APPLY',
  'CONNECT',
  'CREATE',
  'DELETE',
  'DELETECOLLECTION',
  'GET',
  'LIST',
  'PATCH',
  'POST',
  'PROXY',
  'PUT',
  'UPDATE',
  'WATCH',
  'WATCHLIST',
]);

/** The scope label as the real server gives it: a named object, a namespace's collection, or the cluster's. */
function scopeOf(info: ResourceRequestInfo): string {
  return info.name !== '' ? 'resource' : info.namespaceInPath ? 'namespace' : 'cluster';
}

export function requestLabelsOf(info: ResourceRequestInfo, contentType: string | null): LongRunningLabels {
  return {
    verb: cleanVerb(info.verb, contentType),
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource,
    scope: scopeOf(info),
  };
}

/** `requestLabelsOf` with the request's dry-run and code: one object per counted request, not a copy. */
export function requestMetricLabelsOf(
  info: ResourceRequestInfo,
  contentType: string | null,
  dryRun: boolean,
  code: number,
): RequestLabels {
  return {
    verb: cleanVerb(info.verb, contentType),
    dryRun,
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource,
    scope: scopeOf(info),
    code,
  };
}
