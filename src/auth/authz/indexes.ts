/**
 * Index functions the authorizers want on the shared informers, exported
 * so the composition root registers them (`informerFor(gr).addIndex(name,
 * fn)`): bindings by the subjects they name, pods by the node they are
 * bound to, and persistent volumes by the claim they are bound to. Every
 * lookup also works without them, by listing.
 */

import type { UserInfo } from '../../api/authn';
import type { KubeObject } from '../../api/meta';
import { readBinding, serviceAccountUsername } from './objects';

/** Index name on RoleBindings and ClusterRoleBindings. */
export const SUBJECT_INDEX = 'rbac.subject';
/** Index name on Pods: `spec.nodeName`. */
export const POD_NODE_INDEX = 'pod.spec.nodeName';
/** Index name on PersistentVolumes: `<namespace>/<name>` of `spec.claimRef`. */
export const PV_CLAIM_INDEX = 'pv.spec.claimRef';

/**
 * A binding's keys: `<namespace>/user:<name>` for each user it names
 * (a service account as the user name it authenticates as) and
 * `<namespace>/group:<name>` for each group; namespace '' for cluster bindings.
 */
export function subjectIndex(obj: KubeObject): readonly string[] {
  const kind =
    obj.metadata?.namespace !== undefined && obj.metadata.namespace !== ''
      ? 'RoleBinding'
      : 'ClusterRoleBinding';
  const binding = readBinding(obj, kind);
  const keys = new Set<string>();
  for (const s of binding.subjects) {
    if (s.kind === 'User') keys.add(`${binding.namespace}/user:${s.name}`);
    else if (s.kind === 'Group') keys.add(`${binding.namespace}/group:${s.name}`);
    else if (s.kind === 'ServiceAccount') {
      const ns = s.namespace ?? binding.namespace;
      if (ns !== '') keys.add(`${binding.namespace}/user:${serviceAccountUsername(ns, s.name)}`);
    }
  }
  return [...keys];
}

/** The keys under which bindings of `namespace` ('' = cluster) naming the user are indexed. */
export function subjectIndexKeysFor(user: UserInfo, namespace: string): string[] {
  return [`${namespace}/user:${user.username}`, ...user.groups.map((g) => `${namespace}/group:${g}`)];
}

export function podNodeIndex(obj: KubeObject): readonly string[] {
  const spec = obj.spec as { nodeName?: unknown } | undefined;
  return typeof spec?.nodeName === 'string' && spec.nodeName !== '' ? [spec.nodeName] : [];
}

export function pvClaimIndex(obj: KubeObject): readonly string[] {
  const ref = (obj.spec as { claimRef?: { namespace?: unknown; name?: unknown } } | undefined)?.claimRef;
  if (ref === undefined || typeof ref.name !== 'string') return [];
  return [`${typeof ref.namespace === 'string' ? ref.namespace : ''}/${ref.name}`];
}

/** What to register, by informer: `{ resource → { indexName → fn } }` (core and rbac groups under the profile). */
export const authorizerIndexes = {
  rolebindings: { [SUBJECT_INDEX]: subjectIndex },
  clusterrolebindings: { [SUBJECT_INDEX]: subjectIndex },
  pods: { [POD_NODE_INDEX]: podNodeIndex },
  persistentvolumes: { [PV_CLAIM_INDEX]: pvClaimIndex },
} as const;
