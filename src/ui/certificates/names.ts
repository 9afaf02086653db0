/**
 * The API names the certificate and token screens use, derived from the
 * naming profile this browser runs (the UI's worker serves exactly that
 * profile): the certificates and authentication groups, the root-CA
 * ConfigMap every namespace carries, and the built-in signers' names —
 * which the specification renames beyond the domain (`orch.io/apiserver-client`
 * is upstream's `kubernetes.io/kube-apiserver-client`), as the server's
 * policy names do (src/auth/policy/names.ts, which the UI may not import).
 */

import type { NamingProfile } from '../../machinery/naming';

export type SignerKind = 'apiserverClient' | 'apiserverClientNode' | 'nodeServing' | 'legacyUnknown';

export interface ApiNames {
  profile: NamingProfile;
  certificatesGroup: string;
  authenticationGroup: string;
  /** The ConfigMap with the cluster CA (`ca.crt`) in every namespace: `orch-root-ca.crt`, upstream `kube-root-ca.crt`. */
  rootCAConfigMap: string;
  signers: Record<SignerKind, string>;
}

export function apiNames(profile: NamingProfile): ApiNames {
  const upstream = profile.name === 'kubernetes';
  const paths: Record<SignerKind, string> = upstream
    ? {
        apiserverClient: 'kube-apiserver-client',
        apiserverClientNode: 'kube-apiserver-client-kubelet',
        nodeServing: 'kubelet-serving',
        legacyUnknown: 'legacy-unknown',
      }
    : {
        apiserverClient: 'apiserver-client',
        apiserverClientNode: 'apiserver-client-node-agent',
        nodeServing: 'node-agent-serving',
        legacyUnknown: 'legacy-unknown',
      };
  const signers = Object.fromEntries(
    Object.entries(paths).map(([kind, path]) => [kind, `${profile.labelDomain}/${path}`]),
  ) as Record<SignerKind, string>;
  return {
    profile,
    certificatesGroup: profile.suffixed('certificates'),
    authenticationGroup: profile.suffixed('authentication'),
    // The system namespace's word (`orch`, upstream `kube`) names the root-CA ConfigMap too.
    rootCAConfigMap: `${profile.systemNamespace.replace(/-system$/, '')}-root-ca.crt`,
    signers,
  };
}
