/**
 * The default RBAC policy at start, as the real server's bootstrap
 * reconciliation: every default ClusterRole, ClusterRoleBinding, Role and
 * RoleBinding is created when absent and brought up to date when it
 * carries the autoupdate annotation (`auth/policy/reconcile.ts` plans
 * what to do). Writes go through the resources' storages as the server's
 * own identity; a conflict with a concurrent writer re-plans, up to three
 * times.
 */

import type { UserInfo } from '../api/authn';
import type { KubeObject } from '../api/meta';
import { StatusError } from '../machinery/errors';
import { eachLimited } from '../machinery/each-limited';
import type { NamingProfile } from '../machinery/naming';
import { bootstrapPolicy } from '../auth/policy/index';
import { planPolicyReconcile, type StoredPolicy } from '../auth/policy/reconcile';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../auth/policy/types';
import type { SharedInformerFactory } from '../registry/cache/factory';
import type { RestInstaller } from '../registry/installer';
import { internalScope } from '../registry/rest/scope';

const resourceOf: Record<string, string> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  Namespace: 'namespaces',
};

function stored(informers: SharedInformerFactory, profile: NamingProfile): StoredPolicy {
  const group = profile.suffixed('rbac.authorization');
  const list = <T>(resource: string): T[] =>
    informers.listerFor({ group, resource }).list() as unknown as T[];
  return {
    clusterRoles: list<ClusterRole>('clusterroles'),
    clusterRoleBindings: list<ClusterRoleBinding>('clusterrolebindings'),
    roles: list<Role>('roles'),
    roleBindings: list<RoleBinding>('rolebindings'),
    namespaces: informers
      .listerFor({ group: '', resource: 'namespaces' })
      .list()
      .map((n) => n.metadata?.name ?? ''),
  };
}

export async function reconcileBootstrapPolicy(
  rest: RestInstaller,
  informers: SharedInformerFactory,
  profile: NamingProfile,
  user: UserInfo,
  now: Date,
  /** Awaited before each write: lets the clients' requests in flight go first (see server/foreground.ts). */
  beforeWrite: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const policy = bootstrapPolicy(profile);
  for (let round = 0; round < 3; round++) {
    const ops = planPolicyReconcile(policy, stored(informers, profile), profile);
    let replan = false;
    const apply = async (op: (typeof ops)[number]): Promise<void> => {
      await beforeWrite();
      const object = op.object as KubeObject;
      const kind = object.kind ?? '';
      const group = kind === 'Namespace' ? '' : profile.suffixed('rbac.authorization');
      const store = rest.storeFor(group, resourceOf[kind] ?? '');
      if (store === undefined) return;
      const name = object.metadata?.name ?? '';
      const namespace = object.metadata?.namespace ?? '';
      const scope = internalScope(
        user,
        {
          verb: op.op,
          namespace,
          name: op.op === 'create' ? '' : name,
          subresource: '',
          requestResource: { group, version: 'v1', resource: store.rt.resource },
          requestKind: { group, version: 'v1', kind },
        },
        now,
      );
      try {
        if (op.op === 'create') await store.create(scope, object, {});
        else if (op.op === 'update') await store.update(scope, name, () => structuredClone(object), {});
        else await store.delete(scope, name, op.uid !== undefined ? { preconditions: { uid: op.uid } } : {});
      } catch (e) {
        // Another writer got there first (several servers, a learner's edit): read again and plan anew.
        if (e instanceof StatusError && (e.code === 409 || e.code === 404)) replan = true;
        else throw e;
      }
    };
    // Namespaces first (their roles need them), then the independent RBAC objects side by side, so
    // that a fresh store takes them in a few shared transactions rather than one write at a time.
    const isNamespace = (op: (typeof ops)[number]): boolean => (op.object as KubeObject).kind === 'Namespace';
    for (const op of ops.filter(isNamespace)) await apply(op);
    await eachLimited(
      ops.filter((op) => !isNamespace(op)),
      16,
      apply,
    );
    if (!replan) return;
  }
}
