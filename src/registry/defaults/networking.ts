/**
 * networking/v1 defaults: a NetworkPolicy without policyTypes is an
 * Ingress policy (and Egress too when it has egress rules); its ports are
 * TCP; IngressClass parameters are cluster-scoped. Ingress has none: in v1
 * `pathType` is required, not defaulted.
 */

import { child, empty, maybe, ptr, type Defaulter } from './helpers';

export const networkingDefaults: Record<string, Defaulter> = {
  'api.networking.v1.NetworkPolicy': (obj) => {
    const spec = child(obj, 'spec');
    if (!empty(spec.policyTypes)) return;
    spec.policyTypes = empty(spec.egress) ? ['Ingress'] : ['Ingress', 'Egress'];
  },
  'api.networking.v1.NetworkPolicyPort': (port) => ptr(port, 'protocol', 'TCP'),
  'api.networking.v1.IngressClass': (obj) => {
    const parameters = maybe(maybe(obj, 'spec') ?? {}, 'parameters');
    if (parameters !== undefined) ptr(parameters, 'scope', 'Cluster');
  },
};
