/**
 * The API names the certificate and token screens use, derived from the
 * naming profile this browser runs (the UI's worker serves exactly that
 * profile): the certificates and authentication groups, the root-CA
 * ConfigMap every namespace carries, and the built-in signers' names.
 */

import type { NamingProfile, SignerKind } from '../../machinery/naming';

export type { SignerKind } from '../../machinery/naming';

export interface ApiNames {
  profile: NamingProfile;
  certificatesGroup: string;
  authenticationGroup: string;
  /** The ConfigMap with the cluster CA (`ca.crt`) in every namespace: `orch-root-ca.crt`, upstream `kube-root-ca.crt`. */
  rootCAConfigMap: string;
  signers: Readonly<Record<SignerKind, string>>;
}

export function apiNames(profile: NamingProfile): ApiNames {
  return {
    profile,
    certificatesGroup: profile.suffixed('certificates'),
    authenticationGroup: profile.suffixed('authentication'),
    rootCAConfigMap: profile.rootCAConfigMap,
    signers: profile.signers,
  };
}
