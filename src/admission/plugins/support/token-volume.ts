/**
 * The projected service-account volume the ServiceAccount plugin adds to a
 * pod, named for the profile: `orch-api-access-<suffix>` holding a bound
 * token (refreshed by the kubelet, 3607 s so the server can tell these
 * tokens apart and extend them), the cluster's root CA from
 * `orch-root-ca.crt` and the pod's namespace — upstream
 * `kube-api-access-<suffix>` and `kube-root-ca.crt` — and the read-only
 * mount of it at `/var/run/secrets/<label domain>/serviceaccount`.
 */

import type { NamingProfile } from '../../../machinery/naming';

/** The token lifetime of the projected source; TokenRequest recognises it (`WarnOnlyBoundTokenExpirationSeconds`). */
export const projectedTokenExpirationSeconds = 3607;

/** `0644`, the projected volume's explicit default mode. */
const defaultMode = 420;

/** The prefix of the token volume's name, without the trailing dash. */
export function tokenVolumePrefix(profile: NamingProfile): string {
  return `${profile.shortWord}-api-access`;
}

/** Where the token, CA and namespace appear in every container. */
export function tokenMountPath(profile: NamingProfile): string {
  return `/var/run/secrets/${profile.labelDomain}/serviceaccount`;
}

export interface TokenVolume {
  name: string;
  projected: {
    sources: Record<string, unknown>[];
    defaultMode: number;
  };
}

/** The volume, its fields in the real server's order. */
export function tokenVolume(profile: NamingProfile, name: string): TokenVolume {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: projectedTokenExpirationSeconds, path: 'token' } },
        {
          configMap: {
            name: profile.rootCAConfigMap,
            items: [{ key: 'ca.crt', path: 'ca.crt' }],
          },
        },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode,
    },
  };
}

/** The mount of the volume `name` each container gets. */
export function tokenVolumeMount(
  profile: NamingProfile,
  name: string,
): { name: string; readOnly: true; mountPath: string } {
  return { name, readOnly: true, mountPath: tokenMountPath(profile) };
}
