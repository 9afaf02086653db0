/**
 * The identities the in-server controllers act as, as on a real cluster:
 * the controller manager's per-controller service accounts (with
 * `--use-service-account-credentials`) in the system namespace, the API
 * server's own loopback user for the CRD controllers that run inside it,
 * and the simulated cluster's scheduler and node agents. Each gets a
 * loopback bearer token minted at start.
 */

import type { UserInfo } from '../api/authn';
import type { NamingProfile } from '../machinery/naming';

/** The identity of the controller manager's controller `name` (its service account in the system namespace). */
export function serviceAccount(profile: NamingProfile, name: string): UserInfo {
  const ns = profile.systemNamespace;
  return {
    username: `system:serviceaccount:${ns}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
  };
}

export function loopbackIdentities(profile: NamingProfile) {
  return {
    namespaceController: serviceAccount(profile, 'namespace-controller'),
    garbageCollector: serviceAccount(profile, 'generic-garbage-collector'),
    clusterRoleAggregation: serviceAccount(profile, 'clusterrole-aggregation-controller'),
    pvcProtection: serviceAccount(profile, 'pvc-protection-controller'),
    pvProtection: serviceAccount(profile, 'pv-protection-controller'),
    bootstrapSigner: serviceAccount(profile, 'bootstrap-signer'),
    tokenCleaner: serviceAccount(profile, 'token-cleaner'),
    serviceAccount: serviceAccount(profile, 'service-account-controller'),
    rootCAPublisher: serviceAccount(profile, 'root-ca-cert-publisher'),
    /** The CSR approving, signing and cleaning controllers share one account, as upstream. */
    certificateController: serviceAccount(profile, 'certificate-controller'),
    /**
     * The controller manager's own credentials: its shared informers list and watch with them, and the
     * tokens controller writes with them (upstream runs it with the root client, not a service account).
     */
    kubeControllerManager: {
      username: 'system:kube-controller-manager',
      groups: ['system:authenticated'],
    } satisfies UserInfo,
    /** The simulated cluster's components (see simulation/): the node lifecycle controller and the pod GC. */
    nodeController: serviceAccount(profile, 'node-controller'),
    podGarbageCollector: serviceAccount(profile, 'pod-garbage-collector'),
    /** The scheduler runs as its own user, bound to `system:kube-scheduler` and `system:volume-scheduler`. */
    scheduler: { username: 'system:kube-scheduler', groups: ['system:authenticated'] } satisfies UserInfo,
    /** A node agent: judged by the Node authorizer and NodeRestriction. */
    node: (name: string): UserInfo => ({
      username: `system:node:${name}`,
      groups: ['system:nodes', 'system:authenticated'],
    }),
    /** The apiextensions controllers run in the API server and use its loopback identity. */
    apiextensions: {
      username: 'system:apiserver',
      groups: ['system:masters', 'system:authenticated'],
    } satisfies UserInfo,
  };
}
