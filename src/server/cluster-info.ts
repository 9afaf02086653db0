/**
 * The public discovery objects a kubeadm-made cluster has and the sandbox
 * creates at start (and after a reset or import), each when missing (a
 * kept ConfigMap's config is brought up to date with the advertised address):
 * the ConfigMap `cluster-info` in the public namespace whose `<word>config`
 * key is a client configuration with one unnamed cluster (the cluster CA as
 * `certificate-authority-data` and the server's address), written as
 * kubeadm writes it; and the Role and RoleBinding
 * `kubeadm:bootstrap-signer-clusterinfo` that let `system:anonymous` get
 * it, so a joining client reads it before it has credentials. The
 * bootstrap signer controller then keeps it signed; it never creates it.
 */

import type { UserInfo } from '../api/authn';
import type { KubeObject } from '../api/meta';
import { encodeBase64Text } from '../machinery/base64-text';
import { clusterInfoConfigKey, clusterInfoName } from '../machinery/bootstrap-token';
import { notFound, StatusError } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import type { RestInstaller } from '../registry/installer';
import { internalScope } from '../registry/rest/scope';

/** kubeadm's name for the Role and RoleBinding that open cluster-info to anonymous reads. */
export const clusterInfoReaderName = 'kubeadm:bootstrap-signer-clusterinfo';

/** Where clients reach the server and the CA they trust it by. */
export interface AdvertisedAddress {
  url: string;
  /** PEM of the CA that issued the serving certificate; absent for a plain-HTTP server. */
  caPEM?: string;
}

/**
 * The client configuration as kubeadm stores it (client-go's YAML of a
 * Config holding one cluster named ""), so that clients comparing or
 * parsing it see the familiar text.
 */
export function clusterInfoConfig(address: AdvertisedAddress): string {
  const cluster =
    address.caPEM !== undefined
      ? `    certificate-authority-data: ${encodeBase64Text(address.caPEM)}\n    server: ${address.url}\n`
      : `    server: ${address.url}\n`;
  return (
    'apiVersion: v1\n' +
    'clusters:\n' +
    '- cluster:\n' +
    cluster +
    '  name: ""\n' +
    'contexts: null\n' +
    'current-context: ""\n' +
    'kind: Config\n' +
    'preferences: {}\n' +
    'users: null\n'
  );
}

/** The objects, in creation order. */
export function clusterInfoObjects(profile: NamingProfile, address: AdvertisedAddress): KubeObject[] {
  const namespace = profile.publicNamespace;
  const rbac = profile.suffixed('rbac.authorization');
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: clusterInfoName, namespace },
      data: { [clusterInfoConfigKey(profile)]: clusterInfoConfig(address) },
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'Role',
      metadata: { name: clusterInfoReaderName, namespace },
      rules: [
        { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: [clusterInfoName] },
      ],
    },
    {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: clusterInfoReaderName, namespace },
      roleRef: { apiGroup: rbac, kind: 'Role', name: clusterInfoReaderName },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'system:anonymous' }],
    },
  ];
}

type ClusterInfoStore = NonNullable<ReturnType<RestInstaller['storeFor']>>;

/** Rewrites the ConfigMap's config key to `wanted`'s when they differ; a concurrent writer's 409 is read again. */
async function refreshConfig(
  store: ClusterInfoStore,
  profile: NamingProfile,
  existing: KubeObject,
  wanted: KubeObject,
  user: UserInfo,
  now: Date,
): Promise<void> {
  const key = clusterInfoConfigKey(profile);
  const config = (wanted['data'] as Record<string, string>)[key];
  const dataOf = (o: KubeObject | undefined): Record<string, string> =>
    (o?.['data'] as Record<string, string> | undefined) ?? {};
  if (dataOf(existing)[key] === config) return;
  const namespace = existing.metadata?.namespace ?? '';
  const name = existing.metadata?.name ?? '';
  const scope = internalScope(
    user,
    {
      verb: 'update',
      namespace,
      name,
      subresource: '',
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
    },
    now,
  );
  for (let attempt = 1; ; attempt++) {
    try {
      await store.update(
        scope,
        name,
        (current) => {
          if (current === undefined) throw notFound({ group: '', resource: 'configmaps' }, name);
          return { ...current, data: { ...dataOf(current), [key]: config ?? '' } };
        },
        {},
      );
      return;
    } catch (e) {
      // Deleted meanwhile: the next start or advertise creates it again. A lost race: try on the newer copy.
      if (e instanceof StatusError && e.code === 404) return;
      if (!(e instanceof StatusError && e.code === 409) || attempt >= 5) throw e;
    }
  }
}

const resourceOf: Record<string, string> = {
  ConfigMap: 'configmaps',
  Role: 'roles',
  RoleBinding: 'rolebindings',
};

/**
 * Creates what is missing of `clusterInfoObjects` through the storages, as the server's own identity, and
 * brings a kept ConfigMap's `<word>config` key up to date when the server now advertises another address or
 * CA (a host restarted on another port over its kept state): joining clients must not be sent to a stale
 * server. Its other keys (the bootstrap signer's `jws-kubeconfig-*` signatures) are left to the signer, which
 * signs the new content again.
 */
export async function ensureClusterInfo(
  rest: RestInstaller,
  profile: NamingProfile,
  address: AdvertisedAddress,
  user: UserInfo,
  now: Date,
): Promise<void> {
  for (const object of clusterInfoObjects(profile, address)) {
    const kind = object.kind ?? '';
    const group = kind === 'ConfigMap' ? '' : profile.suffixed('rbac.authorization');
    const resource = resourceOf[kind] ?? '';
    const store = rest.storeFor(group, resource);
    if (store === undefined) continue;
    const namespace = object.metadata?.namespace ?? '';
    const name = object.metadata?.name ?? '';
    const existing = await store.objects.get(store.rt, namespace, name);
    if (existing !== undefined) {
      if (kind === 'ConfigMap') await refreshConfig(store, profile, existing.object, object, user, now);
      continue;
    }
    const scope = internalScope(
      user,
      {
        verb: 'create',
        namespace,
        name: '',
        subresource: '',
        requestResource: { group, version: 'v1', resource },
        requestKind: { group, version: 'v1', kind },
      },
      now,
    );
    try {
      await store.create(scope, object, {});
    } catch (e) {
      // Several server instances may race; the loser's AlreadyExists is expected.
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  }
}
