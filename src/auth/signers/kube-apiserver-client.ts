/**
 * The API server client signer (`orch.io/apiserver-client`,
 * `kubernetes.io/kube-apiserver-client` under the kubernetes profile): any
 * subject — reviewers judge it, and admission keeps `system:masters` out —
 * and only client usages, `client auth` required; the real
 * `validAPIServerClientUsages`, with its messages.
 */

import type { RequestView } from './request';

const optional = new Set(['digital signature', 'key encipherment']);

export function validateApiserverClient(
  _request: RequestView,
  usages: readonly string[],
): string | undefined {
  let hasClientAuth = false;
  for (const usage of usages) {
    if (usage === 'client auth') hasClientAuth = true;
    else if (!optional.has(usage)) return `invalid usage for client certificate: ${usage}`;
  }
  if (!hasClientAuth) return 'missing required usage for client certificate: client auth';
  return undefined;
}
