/**
 * The RBAC storages' escalation checks against a recording store: which
 * writes pass, and the real 403, 404 and 422 texts of those that do not.
 */

import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../../api/authn';
import type { KubeObject } from '../../../api/meta';
import { authorizerIndexes, createAuthorizer } from '../../../auth/authz/index';
import { memoryLister } from '../../../auth/authz/memory-lister';
import { invalid, StatusError } from '../../../machinery/errors';
import { namingProfile } from '../../../machinery/naming';
import type { RestStorage } from '../../rest/capabilities';
import { internalScope } from '../../rest/scope';
import type { StoredKindContext } from '../types';
import { bindingHooks, bindingStorage } from './binding-storage';
import { roleStorage } from './role-storage';

const RG = 'rbac.authorization.k8s.io';
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
const root: UserInfo = { username: 'root', groups: ['system:masters'] };
const escalator: UserInfo = { username: 'esc', groups: [] };

const clusterRole = (name: string, rules: object[]): KubeObject => ({ metadata: { name }, rules });
const binding = (ns: string, name: string, user: string, kind: string, roleName: string): KubeObject => ({
  metadata: { name, namespace: ns },
  roleRef: { apiGroup: RG, kind, name: roleName },
  subjects: [{ kind: 'User', apiGroup: RG, name: user }],
});

const authorizer = createAuthorizer(['RBAC'], {
  profile: namingProfile('kubernetes'),
  rbac: {
    roles: memoryLister([]),
    clusterRoles: memoryLister([
      clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
      clusterRole('secret-admin', [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }]),
      clusterRole('escalate-roles', [
        { verbs: ['escalate', 'bind'], apiGroups: [RG], resources: ['roles', 'clusterroles'] },
      ]),
    ]),
    roleBindings: memoryLister(
      [binding('team', 'alice-pods', 'alice', 'ClusterRole', 'pod-reader')],
      authorizerIndexes.rolebindings,
    ),
    clusterRoleBindings: memoryLister(
      [
        {
          metadata: { name: 'esc' },
          roleRef: { apiGroup: RG, kind: 'ClusterRole', name: 'escalate-roles' },
          subjects: [{ kind: 'User', name: 'esc' }],
        },
      ],
      authorizerIndexes.clusterrolebindings,
    ),
  },
});

function storage(
  resource: string,
  make: (ctx: StoredKindContext, cluster: boolean) => RestStorage,
  current?: KubeObject,
) {
  const written: KubeObject[] = [];
  const store = {
    create: (_scope: unknown, obj: KubeObject) => {
      written.push(obj);
      return Promise.resolve(obj);
    },
    update: async (
      _scope: unknown,
      _name: string,
      info: (c: KubeObject | undefined) => Promise<KubeObject>,
    ) => {
      const obj = await info(current);
      written.push(obj);
      return { object: obj, created: false };
    },
  };
  const ctx = {
    rt: { group: RG, resource },
    store,
    services: { authorizer },
  } as unknown as StoredKindContext;
  return { s: make(ctx, resource.startsWith('cluster')), written };
}

function scope(user: UserInfo, resource: string, namespace: string, name = '') {
  return internalScope(
    user,
    {
      verb: name === '' ? 'create' : 'update',
      namespace,
      name,
      subresource: '',
      requestResource: { group: RG, version: 'v1', resource },
      requestKind: { group: RG, version: 'v1', kind: 'X' },
    },
    new Date(),
  );
}

async function failure(p: Promise<unknown>): Promise<StatusError['status']> {
  try {
    await p;
  } catch (e) {
    if (e instanceof StatusError) return e.status;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('role escalation', () => {
  const role = (verbs: string[]): KubeObject => ({
    metadata: { name: 'r', namespace: 'team' },
    rules: [{ verbs, apiGroups: [''], resources: ['pods'] }],
  });

  it('allows granting held rules, refuses more with the real text', async () => {
    const { s, written } = storage('roles', roleStorage);
    await s.create?.(scope(alice, 'roles', 'team'), role(['get']), {});
    expect(written).toHaveLength(1);
    const status = await failure(
      s.create?.(scope(alice, 'roles', 'team'), role(['get', 'delete']), {}) ?? Promise.resolve(),
    );
    expect(status.code).toBe(403);
    expect(status.message).toBe(
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    );
    expect(status.details).toEqual({ name: 'r', group: RG, kind: 'roles' });
    // held only in `team`
    await failure(s.create?.(scope(alice, 'roles', 'other'), role(['get']), {}) ?? Promise.resolve());
  });

  it('lets system:masters and holders of escalate through', async () => {
    const { s, written } = storage('roles', roleStorage);
    await s.create?.(scope(root, 'roles', 'team'), role(['*']), {});
    await s.create?.(scope(escalator, 'roles', 'team'), role(['*']), {});
    expect(written).toHaveLength(2);
  });

  it('checks updates except of garbage-collection fields', async () => {
    const current = { ...role(['delete']), metadata: { name: 'r', namespace: 'team', resourceVersion: '5' } };
    const { s } = storage('roles', roleStorage, current);
    const gcOnly = { ...current, metadata: { ...current.metadata, finalizers: ['x'] } };
    await s.update?.(scope(alice, 'roles', 'team', 'r'), 'r', () => Promise.resolve(gcOnly), {});
    const changed = { ...current, metadata: { ...current.metadata, labels: { a: 'b' } } };
    expect(
      (
        await failure(
          s.update?.(scope(alice, 'roles', 'team', 'r'), 'r', () => Promise.resolve(changed), {}) ??
            Promise.resolve(),
        )
      ).code,
    ).toBe(403);
  });

  it('requires full authority for an aggregationRule', async () => {
    const { s } = storage('clusterroles', roleStorage);
    const agg = {
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
    };
    const status = await failure(s.create?.(scope(alice, 'clusterroles', ''), agg, {}) ?? Promise.resolve());
    expect(status.message).toBe(
      'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });
});

describe('binding escalation', () => {
  it('allows binding a role whose rules are held, or with bind', async () => {
    const { s, written } = storage('rolebindings', bindingStorage);
    await s.create?.(
      scope(alice, 'rolebindings', 'team'),
      binding('team', 'b', 'bob', 'ClusterRole', 'pod-reader'),
      {},
    );
    await s.create?.(
      scope(escalator, 'rolebindings', 'team'),
      binding('team', 'b', 'bob', 'ClusterRole', 'secret-admin'),
      {},
    );
    expect(written).toHaveLength(2);
  });

  it('refuses binding more than is held, and 404s a missing role', async () => {
    const { s } = storage('rolebindings', bindingStorage);
    const status = await failure(
      s.create?.(
        scope(alice, 'rolebindings', 'team'),
        binding('team', 'b', 'bob', 'ClusterRole', 'secret-admin'),
        {},
      ) ?? Promise.resolve(),
    );
    expect(status.message).toBe(
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}',
    );
    const missing = await failure(
      s.create?.(
        scope(alice, 'rolebindings', 'team'),
        binding('team', 'b', 'bob', 'ClusterRole', 'ghost'),
        {},
      ) ?? Promise.resolve(),
    );
    expect(missing).toMatchObject({
      code: 404,
      message: 'clusterroles.rbac.authorization.k8s.io "ghost" not found',
    });
  });

  it('keeps roleRef immutable with the real 422 text', () => {
    const old = binding('team', 'b', 'bob', 'ClusterRole', 'view');
    const next = binding('team', 'b', 'bob', 'ClusterRole', 'edit');
    const errors = bindingHooks.validateUpdate?.(next, old, {} as never) ?? [];
    expect(invalid({ group: RG, kind: 'RoleBinding' }, 'b', errors).status.message).toBe(
      'RoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
    expect(bindingHooks.validateUpdate?.(old, old, {} as never)).toEqual([]);
  });
});
