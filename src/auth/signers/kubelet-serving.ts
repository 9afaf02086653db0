/**
 * The node agent's serving signer (`orch.io/node-agent-serving`,
 * `kubernetes.io/kubelet-serving`): organization exactly `system:nodes`,
 * at least one DNS or IP subject alternative name, no email or URI names,
 * exactly the serving usages (key encipherment may be left out), common
 * name `system:node:…`. The real `ValidateKubeletServingCSR`, checks in its
 * order (the common name last), with its messages.
 */

import {
  errCommonNameNotSystemNode,
  errEmailSANNotAllowed,
  errOrganizationNotSystemNodes,
  errURISANNotAllowed,
  nodeUserPrefix,
  onlyNodesOrganization,
} from './kubelet-client';
import type { RequestView } from './request';
import { sameUsageSet, usageSetText } from './usages';

const requiredUsages = ['digital signature', 'key encipherment', 'server auth'];
const requiredUsagesNoRSA = ['digital signature', 'server auth'];

export function validateKubeletServing(request: RequestView, usages: readonly string[]): string | undefined {
  if (!onlyNodesOrganization(request)) return errOrganizationNotSystemNodes;
  if (request.dnsNames.length === 0 && request.ipAddresses.length === 0)
    return 'DNS or IP subjectAltName is required';
  if (request.emailAddresses.length > 0) return errEmailSANNotAllowed;
  if (request.uris.length > 0) return errURISANNotAllowed;
  if (!sameUsageSet(usages, requiredUsages) && !sameUsageSet(usages, requiredUsagesNoRSA))
    return `usages did not match ${usageSetText(requiredUsages)}`;
  if (!request.commonName.startsWith(nodeUserPrefix)) return errCommonNameNotSystemNode;
  return undefined;
}
