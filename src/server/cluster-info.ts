/**
 * The public discovery objects a kubeadm-made cluster has and the sandbox
 * creates at start (and after a reset or import), each only when missing:
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
import { clusterInfoConfigKey, clusterInfoName } from '../machinery/bootstrap-token';
import { StatusError } from '../machinery/errors';
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

/** Base64 of a text's UTF-8 bytes, without Node's Buffer (the core runs in the browser too). */
function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The client configuration as kubeadm stores it (client-go's YAML of a
 * Config holding one cluster named ""), so that clients comparing or
 * parsing it see the familiar text.
 */
export function clusterInfoConfig(address: AdvertisedAddress): string {
  const cluster =
    address.caPEM !== undefined
      ? `    certificate-authority-data: ${base64(address.caPEM)}\n    server: ${address.url}\n`
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

const resourceOf: Record<string, string> = {
  ConfigMap: 'configmaps',
  Role: 'roles',
  RoleBinding: 'rolebindings',
};

/** Creates what is missing of `clusterInfoObjects` through the storages, as the server's own identity. */
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
    if ((await store.objects.get(store.rt, namespace, name)) !== undefined) continue;
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
