/**
 * The labels the real server's request metrics carry, derived from a
 * request's info: the verb as its CleanVerb spells it (`LIST`, `WATCH`,
 * `APPLY`, `POST`, …) and the scope (`cluster`, `namespace`, `resource`),
 * shared by `apiserver_request_total`, the duration histogram and the
 * long-running gauge.
 */

import type { ResourceRequestInfo } from './request-info';
import type { LongRunningLabels } from './server-context';

export function cleanVerb(verb: string, contentType: string | null): string {
  if (verb === 'patch' && (contentType ?? '').startsWith('application/apply-patch')) return 'APPLY';
  const byVerb: Record<string, string> = {
    get: 'GET',
    list: 'LIST',
    watch: 'WATCH',
    create: 'POST',
    update: 'PUT',
    patch: 'PATCH',
    delete: 'DELETE',
    deletecollection: 'DELETE',
  };
  return byVerb[verb] ?? verb.toUpperCase();
}

export function requestLabelsOf(info: ResourceRequestInfo, contentType: string | null): LongRunningLabels {
  return {
    verb: cleanVerb(info.verb, contentType),
    group: info.group,
    version: info.version,
    resource: info.resource,
    subresource: info.subresource,
    scope:
      info.name !== ''
        ? 'resource'
        : info.namespaceInPath
          ? 'namespace'
          : 'cluster',
  };
}
