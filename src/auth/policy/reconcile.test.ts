// Start-up reconciliation planning, case by case as the real server's
// post-start hook decides: create when absent; union update when present
// and not protected (extra rules and subjects kept, missing atomic rules,
// labels, annotations, selectors and subjects added); recreate a binding
// whose roleRef changed; leave objects annotated autoupdate "false"; and
// the two upgrade steps that run first.
import { describe, expect, it } from 'vitest';
import { namingProfile } from '../../machinery/naming';
import { bootstrapPolicy } from './index';
import { planPolicyReconcile, reconcileBinding, reconcileRole, type StoredPolicy } from './reconcile';
import { covers } from './rules';
import type { ClusterRole, ClusterRoleBinding, RoleBinding } from './types';

const profile = namingProfile('kubernetes');
const AUTO = 'rbac.authorization.kubernetes.io/autoupdate';
const RBAC = 'rbac.authorization.k8s.io';

function policy(): ReturnType<typeof bootstrapPolicy> {
  return bootstrapPolicy(profile);
}

function stored(obj: ClusterRole | ClusterRoleBinding | RoleBinding, rv = '7'): typeof obj {
  const copy = structuredClone(obj);
  copy.metadata.resourceVersion = rv;
  copy.metadata.uid = `uid-${obj.metadata.name}`;
  return copy;
}

function empty(): StoredPolicy {
  return { clusterRoles: [], clusterRoleBindings: [], roles: [], roleBindings: [] };
}

/** The whole default policy as stored, so a test changes only what it is about. */
function storedPolicy(): StoredPolicy {
  const p = policy();
  return {
    clusterRoles: p.clusterRoles.map((r) => stored(r) as ClusterRole),
    clusterRoleBindings: p.clusterRoleBindings.map((b) => stored(b) as ClusterRoleBinding),
    roles: p.roles.map((r) => r.role),
    roleBindings: p.roleBindings.map((b) => b.roleBinding),
  };
}

function find<T extends { metadata: { name: string } }>(list: readonly T[], name: string): T {
  const found = list.find((o) => o.metadata.name === name);
  if (found === undefined) throw new Error(name);
  return found;
}

describe('planPolicyReconcile', () => {
  it('creates everything on an empty server, cluster-scoped first', () => {
    const ops = planPolicyReconcile(policy(), { ...empty(), namespaces: ['kube-system'] }, profile);
    expect(ops.every((o) => o.op === 'create')).toBe(true);
    const kinds = ops.map((o) => o.object.kind);
    // The public namespace is missing, so it is created before its first Role (as upstream ensures it).
    expect(kinds.filter((k) => k === 'Namespace')).toHaveLength(1);
    expect(kinds.indexOf('Namespace')).toBe(kinds.indexOf('Role') - 1);
    expect(kinds.filter((k) => k === 'ClusterRole')).toHaveLength(62);
    expect(kinds.filter((k) => k === 'ClusterRoleBinding')).toHaveLength(43);
    expect(kinds.lastIndexOf('ClusterRole')).toBeLessThan(kinds.indexOf('ClusterRoleBinding'));
    expect(kinds.lastIndexOf('Role')).toBeLessThan(kinds.indexOf('RoleBinding'));
  });

  it('does nothing when the stored policy is current', () => {
    expect(planPolicyReconcile(policy(), storedPolicy(), profile)).toEqual([]);
  });

  it('matches list items that carry no kind, and gives updates their kind back', () => {
    // Items of a List response come without apiVersion and kind.
    const s = storedPolicy();
    const strip = <T extends { apiVersion?: string; kind?: string }>(o: T): T => {
      const { apiVersion: _a, kind: _k, ...rest } = o;
      return rest as T;
    };
    s.clusterRoles = s.clusterRoles.map(strip);
    s.clusterRoleBindings = s.clusterRoleBindings.map(strip);
    s.roles = s.roles.map(strip);
    s.roleBindings = s.roleBindings.map(strip);
    expect(planPolicyReconcile(policy(), s, profile)).toEqual([]);
    const edit = find(s.clusterRoles, 'edit');
    delete edit.aggregationRule;
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops).toHaveLength(1);
    expect(ops[0]?.object).toMatchObject({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole' });
  });

  it('adds missing rules as atomic rules and keeps extra stored rules', () => {
    const s = storedPolicy();
    const node = find(s.clusterRoles, 'system:node');
    const extra = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    // Drop the runtimeclasses rule and the `watch` verb of the services rule; add a rule of one's own.
    node.rules = [...(node.rules ?? []).filter((r) => !r.resources?.includes('runtimeclasses')), extra].map(
      (r) => (r.resources?.includes('services') ? { ...r, verbs: ['get', 'list'] } : r),
    );
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops).toHaveLength(1);
    const op = ops[0];
    expect(op?.op).toBe('update');
    const updated = op?.object as ClusterRole;
    expect(updated.metadata.resourceVersion).toBe('7');
    expect(updated.rules).toContainEqual(extra);
    expect(updated.rules?.slice(-4)).toEqual([
      { verbs: ['watch'], apiGroups: [''], resources: ['services'] },
      { verbs: ['get'], apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'] },
      { verbs: ['list'], apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'] },
      { verbs: ['watch'], apiGroups: ['node.k8s.io'], resources: ['runtimeclasses'] },
    ]);
    expect(covers(updated.rules ?? [], find(policy().clusterRoles, 'system:node').rules ?? []).covered).toBe(
      true,
    );
  });

  it('adds missing labels and annotations but keeps stored values', () => {
    const s = storedPolicy();
    const view = find(s.clusterRoles, 'system:aggregate-to-view');
    view.metadata.labels = { team: 'a' };
    view.metadata.annotations = { [AUTO]: 'yes', note: 'kept' };
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops.map((o) => o.op)).toEqual(['update']);
    expect((ops[0]?.object as ClusterRole).metadata.labels).toEqual({
      team: 'a',
      'kubernetes.io/bootstrapping': 'rbac-defaults',
      [`${RBAC}/aggregate-to-view`]: 'true',
    });
    expect((ops[0]?.object as ClusterRole).metadata.annotations).toEqual({ [AUTO]: 'yes', note: 'kept' });
  });

  it('adds a missing aggregation rule and missing selectors, and removes an unexpected one', () => {
    const s = storedPolicy();
    const admin = find(s.clusterRoles, 'admin');
    delete admin.aggregationRule;
    admin.rules = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
    const edit = find(s.clusterRoles, 'edit');
    const mine = { matchLabels: { mine: 'true' } };
    edit.aggregationRule = { clusterRoleSelectors: [mine] };
    const node = find(s.clusterRoles, 'system:node');
    node.aggregationRule = { clusterRoleSelectors: [mine] };
    const ops = planPolicyReconcile(policy(), s, profile);
    const byName = new Map(ops.map((o) => [o.object.metadata.name, o.object as ClusterRole]));
    expect(byName.get('admin')?.aggregationRule).toEqual({
      clusterRoleSelectors: [{ matchLabels: { [`${RBAC}/aggregate-to-admin`]: 'true' } }],
    });
    // Rules already there stay until the aggregation controller replaces them.
    expect(byName.get('admin')?.rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    expect(byName.get('edit')?.aggregationRule?.clusterRoleSelectors).toEqual([
      mine,
      { matchLabels: { [`${RBAC}/aggregate-to-edit`]: 'true' } },
    ]);
    expect(byName.get('system:node')?.aggregationRule).toBeUndefined();
    expect(byName.get('system:node')?.rules).toEqual(find(policy().clusterRoles, 'system:node').rules);
  });

  it('adds missing subjects and keeps extra ones', () => {
    const s = storedPolicy();
    const viewer = find(s.clusterRoleBindings, 'system:public-info-viewer');
    const extra = { kind: 'User' as const, apiGroup: RBAC, name: 'alice' };
    viewer.subjects = [extra, { kind: 'Group', apiGroup: RBAC, name: 'system:authenticated' }];
    // Stored service-account subjects carry the defaulted empty group; that is the same subject.
    const dns = find(s.clusterRoleBindings, 'system:kube-dns');
    dns.subjects = [{ kind: 'ServiceAccount', apiGroup: '', name: 'kube-dns', namespace: 'kube-system' }];
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops).toHaveLength(1);
    expect(ops[0]?.op).toBe('update');
    expect((ops[0]?.object as ClusterRoleBinding).subjects).toEqual([
      extra,
      { kind: 'Group', apiGroup: RBAC, name: 'system:authenticated' },
      { kind: 'Group', apiGroup: RBAC, name: 'system:unauthenticated' },
    ]);
  });

  it('deletes and recreates a binding whose roleRef differs', () => {
    const s = storedPolicy();
    const binding = find(s.clusterRoleBindings, 'system:basic-user');
    binding.roleRef = { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' };
    binding.subjects = [{ kind: 'User', apiGroup: RBAC, name: 'bob' }];
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops.map((o) => o.op)).toEqual(['delete', 'create']);
    expect(ops[0]).toMatchObject({ uid: 'uid-system:basic-user', object: { roleRef: { name: 'view' } } });
    expect(ops[1]?.object).toEqual(find(policy().clusterRoleBindings, 'system:basic-user'));
  });

  it('leaves objects annotated autoupdate "false"', () => {
    const s = storedPolicy();
    const node = find(s.clusterRoles, 'system:node');
    node.metadata.annotations = { [AUTO]: 'false' };
    node.rules = [];
    const binding = find(s.clusterRoleBindings, 'cluster-admin');
    binding.metadata.annotations = { [AUTO]: 'false' };
    binding.roleRef = { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' };
    const signer = find(s.roleBindings, 'system:controller:token-cleaner');
    signer.metadata.annotations = { [AUTO]: 'false' };
    signer.subjects = [];
    expect(planPolicyReconcile(policy(), s, profile)).toEqual([]);
    expect(reconcileRole(find(policy().clusterRoles, 'system:node'), node, profile)).toMatchObject({
      action: 'protected',
    });
  });

  it('migrates the rules of a pre-aggregation admin role into system:aggregate-to-admin first', () => {
    const s = storedPolicy();
    s.clusterRoles = s.clusterRoles.filter((r) => r.metadata.name !== 'system:aggregate-to-admin');
    const admin = find(s.clusterRoles, 'admin');
    delete admin.aggregationRule;
    const custom = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    admin.rules = [custom];
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops.map((o) => `${o.op} ${o.object.metadata.name}`)).toEqual([
      'create system:aggregate-to-admin',
      'update admin',
      'update system:aggregate-to-admin',
    ]);
    const migrated = ops[0]?.object as ClusterRole;
    expect(migrated.rules).toEqual([custom]);
    expect(migrated.metadata.uid).toBeUndefined();
    expect(migrated.metadata.resourceVersion).toBeUndefined();
    const reconciled = ops[2]?.object as ClusterRole;
    expect(reconciled.rules?.[0]).toEqual(custom);
    expect(reconciled.metadata.labels?.[`${RBAC}/aggregate-to-admin`]).toBe('true');
  });

  it('seeds system:public-info-viewer from the subjects of system:discovery', () => {
    const s = storedPolicy();
    s.clusterRoleBindings = s.clusterRoleBindings.filter(
      (b) => b.metadata.name !== 'system:public-info-viewer',
    );
    const discovery = find(s.clusterRoleBindings, 'system:discovery');
    discovery.subjects = [
      { kind: 'Group', apiGroup: RBAC, name: 'system:authenticated' },
      { kind: 'Group', apiGroup: RBAC, name: 'system:unauthenticated' },
      { kind: 'User', apiGroup: RBAC, name: 'carol' },
    ];
    const ops = planPolicyReconcile(policy(), s, profile);
    expect(ops.map((o) => `${o.op} ${o.object.metadata.name}`)).toEqual(['create system:public-info-viewer']);
    expect((ops[0]?.object as ClusterRoleBinding).subjects?.map((x) => x.name)).toEqual([
      'system:authenticated',
      'system:unauthenticated',
      'carol',
    ]);
  });
});

describe('reconcileBinding', () => {
  it('reports none, create and update', () => {
    const want = find(policy().clusterRoleBindings, 'system:monitoring');
    expect(reconcileBinding(want, undefined, profile)).toEqual({ action: 'create', object: want });
    expect(reconcileBinding(want, stored(want) as ClusterRoleBinding, profile)).toEqual({ action: 'none' });
    const noSubjects = stored(want) as ClusterRoleBinding;
    delete noSubjects.subjects;
    expect(reconcileBinding(want, noSubjects, profile)).toMatchObject({
      action: 'update',
      object: { subjects: want.subjects },
    });
  });
});
