/**
 * The node agent's client signer (`orch.io/apiserver-client-node-agent`,
 * `kubernetes.io/kube-apiserver-client-kubelet`): a node's own identity
 * only — organization exactly `system:nodes`, common name `system:node:…`,
 * no subject alternative name of any kind, and exactly the client usages
 * (key encipherment may be left out, for keys that cannot encipher). The
 * real `ValidateKubeletClientCSR`, checks in its order, with its messages;
 * the auto-approver recognizes node client requests by the same rules.
 */

import type { RequestView } from './request';
import { sameUsageSet, usageSetText } from './usages';

export const nodeOrganization = 'system:nodes';
export const nodeUserPrefix = 'system:node:';

export const errOrganizationNotSystemNodes = 'subject organization is not system:nodes';
export const errCommonNameNotSystemNode = 'subject common name does not begin with system:node:';
export const errEmailSANNotAllowed = 'Email subjectAltNames are not allowed';
export const errURISANNotAllowed = 'URI subjectAltNames are not allowed';

const requiredUsages = ['digital signature', 'key encipherment', 'client auth'];
const requiredUsagesNoRSA = ['digital signature', 'client auth'];

/** Go's `reflect.DeepEqual([]string{"system:nodes"}, Subject.Organization)`. */
export function onlyNodesOrganization(request: RequestView): boolean {
  return request.organizations.length === 1 && request.organizations[0] === nodeOrganization;
}

export function validateKubeletClient(request: RequestView, usages: readonly string[]): string | undefined {
  if (!onlyNodesOrganization(request)) return errOrganizationNotSystemNodes;
  if (request.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (request.emailAddresses.length > 0) return errEmailSANNotAllowed;
  if (request.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (request.uris.length > 0) return errURISANNotAllowed;
  if (!request.commonName.startsWith(nodeUserPrefix)) return errCommonNameNotSystemNode;
  if (!sameUsageSet(usages, requiredUsages) && !sameUsageSet(usages, requiredUsagesNoRSA))
    return `usages did not match ${usageSetText(requiredUsages)}`;
  return undefined;
}
