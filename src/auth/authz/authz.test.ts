/**
 * The authorizers against hand-built RBAC objects: rule matching, reasons,
 * evaluation errors, the union of modes, the Node authorizer's
 * relationships, rules for SelfSubjectRulesReview, 403 texts, escalation
 * messages and explanations — each text compared with the real server's.
 */

import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../api/authn';
import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../../machinery/naming';
import type { AuthorizationAttributes } from '../authorizer';
import { createAuthorizer, type AuthorizationMode } from './union';
import { forbiddenError } from './forbidden';
import { escalationError } from './escalation';
import { memoryLister } from './memory-lister';
import { authorizerIndexes } from './indexes';
import { ruleAllows, type PolicyRule } from './rules';

const k8s = namingProfile('kubernetes');
const orch = namingProfile('orch');
const RG = 'rbac.authorization.k8s.io';

const user = (username: string, ...groups: string[]): UserInfo => ({ username, groups });
const alice = user('alice', 'system:authenticated');

function res(
  u: UserInfo,
  verb: string,
  resource: string,
  namespace = '',
  name = '',
  apiGroup = '',
): AuthorizationAttributes {
  const [r = '', sub = ''] = resource.split('/');
  return {
    user: u,
    verb,
    resourceRequest: true,
    apiGroup,
    apiVersion: 'v1',
    resource: r,
    subresource: sub,
    namespace,
    name,
    path: '',
  };
}
function url(u: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return {
    user: u,
    verb,
    resourceRequest: false,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path,
  };
}

const clusterRole = (name: string, rules: PolicyRule[]): KubeObject => ({
  kind: 'ClusterRole',
  metadata: { name },
  rules,
});
const role = (ns: string, name: string, rules: PolicyRule[]): KubeObject => ({
  kind: 'Role',
  metadata: { name, namespace: ns },
  rules,
});
const crb = (name: string, roleName: string, subjects: object[]): KubeObject => ({
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: RG, kind: 'ClusterRole', name: roleName },
  subjects,
});
const rb = (ns: string, name: string, kind: string, roleName: string, subjects: object[]): KubeObject => ({
  kind: 'RoleBinding',
  metadata: { name, namespace: ns },
  roleRef: { apiGroup: RG, kind, name: roleName },
  subjects,
});

function authz(
  objects: {
    roles?: KubeObject[];
    clusterRoles?: KubeObject[];
    roleBindings?: KubeObject[];
    clusterRoleBindings?: KubeObject[];
  },
  modes: AuthorizationMode[] = ['RBAC'],
  extra: { pods?: KubeObject[]; pvs?: KubeObject[]; profile?: typeof k8s } = {},
) {
  return createAuthorizer(modes, {
    profile: extra.profile ?? k8s,
    rbac: {
      roles: memoryLister(objects.roles ?? []),
      clusterRoles: memoryLister(objects.clusterRoles ?? []),
      roleBindings: memoryLister(objects.roleBindings ?? [], authorizerIndexes.rolebindings),
      clusterRoleBindings: memoryLister(
        objects.clusterRoleBindings ?? [],
        authorizerIndexes.clusterrolebindings,
      ),
    },
    node: {
      pods: memoryLister(extra.pods ?? [], authorizerIndexes.pods),
      persistentVolumes: memoryLister(extra.pvs ?? [], authorizerIndexes.persistentvolumes),
      nodeRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'nodes'] },
        { verbs: ['update', 'patch'], apiGroups: [''], resources: ['pods/status', 'nodes/status'] },
      ],
    },
  });
}

describe('rule matching', () => {
  const cases: [PolicyRule, AuthorizationAttributes, boolean][] = [
    [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res(alice, 'delete', 'pods', 'ns', 'p'), true],
    [{ verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, res(alice, 'get', 'pods/log', 'ns', 'p'), true],
    [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      res(alice, 'get', 'pods/log', 'ns', 'p'),
      false,
    ],
    [
      { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] },
      res(alice, 'get', 'deployments/scale', 'ns', 'd', 'apps'),
      true,
    ],
    [
      { verbs: ['get'], apiGroups: ['apps'], resources: ['*/scale'] },
      res(alice, 'get', 'deployments', 'ns', 'd', 'apps'),
      false,
    ],
    [
      { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] },
      res(alice, 'get', 'pods/log', 'ns', 'p'),
      false,
    ],
    [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
      res(alice, 'get', 'pods', 'ns', 'p'),
      true,
    ],
    [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
      res(alice, 'list', 'pods', 'ns'),
      false,
    ],
    [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, url(alice, 'get', '/apis/apps/v1'), true],
    [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }, url(alice, 'get', '/apis'), false],
    [{ verbs: ['get'], nonResourceURLs: ['*'] }, url(alice, 'get', '/anything'), true],
    [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }, url(alice, 'post', '/healthz'), false],
    [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, url(alice, 'get', '/pods'), false],
  ];
  it.each(cases)('%j allows %j: %s', (rule, attrs, allowed) => expect(ruleAllows(attrs, rule)).toBe(allowed));
});

describe('RBAC decisions', () => {
  const objects = {
    clusterRoles: [
      clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
    ],
    roles: [role('team', 'cm', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }])],
    clusterRoleBindings: [crb('readers', 'pod-reader', [{ kind: 'Group', apiGroup: RG, name: 'readers' }])],
    roleBindings: [
      rb('team', 'cm-binding', 'Role', 'cm', [{ kind: 'ServiceAccount', name: 'builder' }]),
      rb('team', 'pods-here', 'ClusterRole', 'pod-reader', [{ kind: 'User', apiGroup: RG, name: 'alice' }]),
      rb('team', 'broken', 'ClusterRole', 'ghost', [{ kind: 'User', apiGroup: RG, name: 'bob' }]),
    ],
  };
  const a = authz(objects);

  it('allows through a ClusterRoleBinding and names it', async () => {
    expect(await a.authorize(res(user('x', 'readers'), 'get', 'pods', 'any', 'p'))).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "readers" of ClusterRole "pod-reader" to Group "readers"',
    });
  });

  it('allows through a RoleBinding to a ClusterRole, only in its namespace', async () => {
    expect((await a.authorize(res(alice, 'list', 'pods', 'team'))).reason).toBe(
      'RBAC: allowed by RoleBinding "pods-here/team" of ClusterRole "pod-reader" to User "alice"',
    );
    expect((await a.authorize(res(alice, 'list', 'pods', 'other'))).decision).toBe('NoOpinion');
    expect((await a.authorize(res(alice, 'list', 'pods'))).decision).toBe('NoOpinion');
  });

  it('defaults a service account subject to the binding namespace', async () => {
    const sa = user(
      'system:serviceaccount:team:builder',
      'system:serviceaccounts',
      'system:serviceaccounts:team',
    );
    expect((await a.authorize(res(sa, 'get', 'configmaps', 'team', 'c'))).reason).toBe(
      'RBAC: allowed by RoleBinding "cm-binding/team" of Role "cm" to ServiceAccount "builder/team"',
    );
    const other = user('system:serviceaccount:other:builder', 'system:serviceaccounts');
    expect((await a.authorize(res(other, 'get', 'configmaps', 'team', 'c'))).decision).toBe('NoOpinion');
  });

  it('reports a missing role in the reason (no evaluation error, as the real RBAC), and nothing otherwise', async () => {
    const bob = user('bob', 'system:authenticated');
    expect(await a.authorize(res(bob, 'get', 'pods', 'team', 'p'))).toEqual({
      decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found',
    });
    expect(await a.authorize(res(alice, 'delete', 'pods', 'team', 'p'))).toEqual({
      decision: 'NoOpinion',
      reason: '',
    });
  });

  it('words the error with the profile group', async () => {
    const o = authz(objects, ['RBAC'], { profile: orch });
    const r = await o.authorize(res(user('bob'), 'get', 'pods', 'team', 'p'));
    expect(r.reason).toBe('RBAC: clusterrole.rbac.authorization.orch.io "ghost" not found');
  });

  it('has no wildcard subjects: anonymous needs an explicit grant', async () => {
    const anon = user('system:anonymous', 'system:unauthenticated');
    const withAll = authz({
      clusterRoles: [clusterRole('all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])],
      clusterRoleBindings: [
        crb('authed', 'all', [{ kind: 'Group', apiGroup: RG, name: 'system:authenticated' }]),
        crb('star', 'all', [{ kind: 'User', apiGroup: RG, name: '*' }]),
      ],
    });
    expect((await withAll.authorize(res(anon, 'list', 'pods'))).decision).toBe('NoOpinion');
  });
});

describe('modes', () => {
  it('lets system:masters do everything before any mode', async () => {
    const a = authz({}, ['AlwaysDeny']);
    expect(await a.authorize(res(user('root', 'system:masters'), 'delete', 'nodes', '', 'n'))).toEqual({
      decision: 'Allow',
      reason: '',
    });
  });

  it('AlwaysDeny says everything is forbidden; reasons join by newline', async () => {
    const a = authz(
      { roleBindings: [rb('team', 'b', 'ClusterRole', 'ghost', [{ kind: 'User', name: 'alice' }])] },
      ['RBAC', 'AlwaysDeny'],
    );
    const r = await a.authorize(res(alice, 'get', 'pods', 'team', 'p'));
    expect(r.reason).toBe(
      'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found\nEverything is forbidden.',
    );
    expect(a.decisions(res(alice, 'get', 'pods', 'team', 'p')).map((d) => d.authorizer)).toEqual([
      'PrivilegedGroups',
      'RBAC',
      'AlwaysDeny',
    ]);
    expect(a.authorizeSync(res(alice, 'get', 'pods', 'team', 'p'))).toEqual(r);
  });

  it('decides the same without the promise', async () => {
    const a = authz(
      {
        clusterRoles: [clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])],
        roleBindings: [rb('team', 'b', 'ClusterRole', 'view', [{ kind: 'User', name: 'alice' }])],
      },
      ['RBAC'],
    );
    for (const attributes of [
      res(alice, 'get', 'pods', 'team', 'p'),
      res(alice, 'delete', 'pods', 'team', 'p'),
      res(user('root', 'system:masters'), 'delete', 'nodes', '', 'n'),
      url(alice, 'get', '/healthz'),
    ])
      expect(a.authorizeSync(attributes)).toEqual(await a.authorize(attributes));
  });

  it('AlwaysAllow allows and enumerates everything', async () => {
    const a = authz({}, ['AlwaysAllow']);
    expect((await a.authorize(url(alice, 'delete', '/x'))).decision).toBe('Allow');
    expect(await a.rulesFor(alice, 'ns')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    });
  });
});

describe('rules for SelfSubjectRulesReview', () => {
  const a = authz(
    {
      clusterRoles: [
        clusterRole('mixed', [
          { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] },
          { verbs: ['get'], nonResourceURLs: ['/healthz'] },
        ]),
      ],
      clusterRoleBindings: [crb('m', 'mixed', [{ kind: 'User', name: 'alice' }])],
      roleBindings: [
        rb('team', 'x', 'Role', 'nope', [{ kind: 'User', name: 'alice' }]),
        rb('team', 'y', 'ClusterRole', 'gone', [{ kind: 'User', name: 'alice' }]),
      ],
    },
    ['Node', 'RBAC'],
  );

  it('splits rules and aggregates errors', async () => {
    expect(await a.rulesFor(alice, 'team')).toEqual({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      incomplete: false,
      evaluationError:
        '[role.rbac.authorization.k8s.io "nope" not found, clusterrole.rbac.authorization.k8s.io "gone" not found]',
    });
  });

  it('marks a node agent incomplete', async () => {
    const r = await a.rulesFor(user('system:node:n1', 'system:nodes'), 'team');
    expect(r.incomplete).toBe(true);
    expect(r.evaluationError).toBe('node authorizer does not support user rule resolution');
  });
});

describe('Node authorizer', () => {
  const n1 = user('system:node:n1', 'system:nodes', 'system:authenticated');
  const pod = (
    name: string,
    node: string,
    spec: object,
    annotations?: Record<string, string>,
  ): KubeObject => ({
    metadata: { name, namespace: 'team', ...(annotations ? { annotations } : {}) },
    spec: { nodeName: node, ...spec },
  });
  const pods = [
    pod('p1', 'n1', {
      serviceAccountName: 'sa1',
      containers: [
        {
          env: [{ valueFrom: { configMapKeyRef: { name: 'c1' } } }],
          envFrom: [{ secretRef: { name: 'env-secret' } }],
        },
      ],
      volumes: [
        { name: 'v', secret: { secretName: 's1' } },
        { name: 'data', persistentVolumeClaim: { claimName: 'claim1' } },
        { name: 'scratch', ephemeral: {} },
      ],
    }),
    pod('p2', 'n2', { volumes: [{ name: 'v', secret: { secretName: 's2' } }] }),
    pod(
      'mirror',
      'n1',
      { volumes: [{ name: 'v', secret: { secretName: 'stolen' } }] },
      { 'kubernetes.io/config.mirror': 'x' },
    ),
  ];
  const pvs: KubeObject[] = [
    {
      metadata: { name: 'pv1' },
      spec: {
        claimRef: { namespace: 'team', name: 'claim1' },
        csi: { nodePublishSecretRef: { name: 'pv-secret' } },
      },
    },
    { metadata: { name: 'pv2' }, spec: { claimRef: { namespace: 'team', name: 'other' } } },
  ];
  const a = authz({}, ['Node', 'RBAC'], { pods, pvs });
  const lease = 'kube-node-lease';

  const cases: [string, AuthorizationAttributes, 'Allow' | 'NoOpinion', string][] = [
    ['secret of its pod', res(n1, 'get', 'secrets', 'team', 's1'), 'Allow', ''],
    ['envFrom secret', res(n1, 'watch', 'secrets', 'team', 'env-secret'), 'Allow', ''],
    ['volume secret', res(n1, 'get', 'secrets', 'team', 'pv-secret'), 'Allow', ''],
    [
      'other node secret',
      res(n1, 'get', 'secrets', 'team', 's2'),
      'NoOpinion',
      "no relationship found between node 'n1' and this object",
    ],
    [
      'mirror pod secret',
      res(n1, 'get', 'secrets', 'team', 'stolen'),
      'NoOpinion',
      "no relationship found between node 'n1' and this object",
    ],
    ['list secrets', res(n1, 'list', 'secrets', 'team'), 'NoOpinion', 'No Object name found'],
    [
      'update secret',
      res(n1, 'update', 'secrets', 'team', 's1'),
      'NoOpinion',
      'can only read resources of this type',
    ],
    ['configmap', res(n1, 'get', 'configmaps', 'team', 'c1'), 'Allow', ''],
    ['claim', res(n1, 'get', 'persistentvolumeclaims', 'team', 'claim1'), 'Allow', ''],
    ['ephemeral claim', res(n1, 'get', 'persistentvolumeclaims', 'team', 'p1-scratch'), 'Allow', ''],
    ['claim status', res(n1, 'patch', 'persistentvolumeclaims/status', 'team', 'claim1'), 'Allow', ''],
    [
      'claim list',
      res(n1, 'list', 'persistentvolumeclaims', 'team'),
      'NoOpinion',
      'can only get individual resources of this type',
    ],
    ['volume', res(n1, 'get', 'persistentvolumes', '', 'pv1'), 'Allow', ''],
    [
      'other volume',
      res(n1, 'get', 'persistentvolumes', '', 'pv2'),
      'NoOpinion',
      "no relationship found between node 'n1' and this object",
    ],
    ['token', res(n1, 'create', 'serviceaccounts/token', 'team', 'sa1'), 'Allow', ''],
    [
      'other token',
      res(n1, 'create', 'serviceaccounts/token', 'team', 'sa2'),
      'NoOpinion',
      "no relationship found between node 'n1' and this object",
    ],
    [
      'get sa',
      res(n1, 'get', 'serviceaccounts', 'team', 'sa1'),
      'NoOpinion',
      'can only create tokens for individual service accounts',
    ],
    ['own lease', res(n1, 'update', 'leases', lease, 'n1', 'coordination.k8s.io'), 'Allow', ''],
    ['create lease', res(n1, 'create', 'leases', lease, '', 'coordination.k8s.io'), 'Allow', ''],
    [
      'other lease',
      res(n1, 'get', 'leases', lease, 'n2', 'coordination.k8s.io'),
      'NoOpinion',
      'can only access node lease with the same name as the requesting node',
    ],
    [
      'lease elsewhere',
      res(n1, 'get', 'leases', 'team', 'n1', 'coordination.k8s.io'),
      'NoOpinion',
      'can only access leases in the "kube-node-lease" system namespace',
    ],
    [
      'list leases',
      res(n1, 'list', 'leases', lease, '', 'coordination.k8s.io'),
      'NoOpinion',
      'can only get, create, update, patch, or delete a node lease',
    ],
    ['own csinode', res(n1, 'get', 'csinodes', '', 'n1', 'storage.k8s.io'), 'Allow', ''],
    [
      'other csinode',
      res(n1, 'get', 'csinodes', '', 'n2', 'storage.k8s.io'),
      'NoOpinion',
      'can only access CSINode with the same name as the requesting node',
    ],
    ['static rule', res(n1, 'patch', 'nodes/status', '', 'n1'), 'Allow', ''],
    ['not a node', res(user('system:node:n1'), 'get', 'secrets', 'team', 's1'), 'NoOpinion', ''],
  ];
  it.each(cases)('%s', async (_what, attrs, decision, reason) => {
    expect(await a.authorize(attrs)).toEqual({ decision, reason });
  });
});

describe('403 texts', () => {
  it('words resource, collection, cluster and non-resource refusals', () => {
    const e1 = forbiddenError(res(alice, 'get', 'deployments/scale', 'ns', 'web', 'apps'), '');
    expect(e1.status.message).toBe(
      'deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments/scale" in API group "apps" in the namespace "ns"',
    );
    expect(e1.status.details).toEqual({ name: 'web', group: 'apps', kind: 'deployments' });
    const anon = user('system:anonymous', 'system:unauthenticated');
    expect(forbiddenError(res(anon, 'list', 'namespaces'), '').status.message).toBe(
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    const e3 = forbiddenError(url(alice, 'get', '/foo'), '');
    expect(e3.status.message).toBe('forbidden: User "alice" cannot get path "/foo"');
    expect(e3.status.details).toEqual({});
    expect(
      forbiddenError(
        res(alice, 'get', 'pods', 'ns', 'p'),
        'RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
      ).status.message,
    ).toBe(
      'pods "p" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns": RBAC: clusterrole.rbac.authorization.k8s.io "x" not found',
    );
  });
});

describe('escalation text', () => {
  it('lists the missing rules compacted and sorted, with resolution errors', () => {
    const held: PolicyRule[] = [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }];
    const wanted: PolicyRule[] = [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'configmaps'] },
      { verbs: ['get'], nonResourceURLs: ['/metrics'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a', 'b'] },
    ];
    const u = user('alice', 'system:authenticated', 'devs');
    expect(escalationError(u, held, wanted, [])).toBe(
      'user "alice" (groups=["system:authenticated" "devs"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["list"]}\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["a"], Verbs:["get"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["b"], Verbs:["get"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
    expect(
      escalationError(u, held, wanted.slice(0, 1), ['clusterroles.rbac.authorization.k8s.io "x" not found']),
    ).toMatch(
      /Verbs:\["get" "list"\]\}; resolution errors: \[clusterroles\.rbac\.authorization\.k8s\.io "x" not found\]$/,
    );
    expect(
      escalationError(u, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], wanted.slice(0, 1), []),
    ).toBeUndefined();
  });
});

describe('explanations', () => {
  it('lists bindings with what they lack and suggests a grant', () => {
    const a = authz({
      clusterRoles: [
        clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
      ],
      clusterRoleBindings: [crb('others', 'pod-reader', [{ kind: 'Group', name: 'ops' }])],
      roleBindings: [
        rb('team', 'mine', 'ClusterRole', 'pod-reader', [{ kind: 'User', name: 'alice' }]),
        rb('elsewhere', 'there', 'ClusterRole', 'pod-reader', [{ kind: 'User', name: 'alice' }]),
        rb('team', 'missing', 'Role', 'ghost', [{ kind: 'User', name: 'alice' }]),
      ],
    });
    const e = a.explain(res(alice, 'delete', 'pods', 'team', 'p'));
    expect(e.decisions.map((d) => `${d.authorizer}: ${d.decision}`)).toEqual([
      'PrivilegedGroups: NoOpinion',
      'RBAC: NoOpinion',
    ]);
    expect(
      e.considered.map((c) => [
        c.binding.name,
        c.subjectMatch.startsWith('no match') ? 'no' : c.subjectMatch,
        c.role.found,
        c.missing,
      ]),
    ).toEqual([
      ['others', 'no', true, ['verb']],
      ['mine', 'user', true, ['verb']],
      ['missing', 'user', false, undefined],
      ['there', 'user', true, ['namespace', 'verb']],
    ]);
    expect(e.suggestion?.role).toEqual({
      apiVersion: `${RG}/v1`,
      kind: 'Role',
      metadata: { name: 'allow-alice-delete-pods', namespace: 'team' },
      rules: [{ apiGroups: [''], resources: ['pods'], resourceNames: ['p'], verbs: ['delete'] }],
    });
    expect(e.suggestion?.binding.kind).toBe('RoleBinding');
    const sa = user('system:serviceaccount:team:bot');
    const s = a.explain(url(sa, 'get', '/metrics')).suggestion;
    expect(s?.role.kind).toBe('ClusterRole');
    expect(s?.binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'bot', namespace: 'team' }]);
  });
});
