/**
 * `kubectl create role|clusterrole|rolebinding|clusterrolebinding NAME`:
 * rules grouped by API group (resources resolved through discovery, so
 * `deploy` becomes `deployments` in `apps`), and bindings with users,
 * groups and service accounts as subjects. The typed client posts to
 * `rbac.authorization.k8s.io/v1`.
 */

import type { CommandContext } from '../../command';
import { KubectlError, usageError } from '../../errors';
import { generator, meta, typedPath } from './generator';

const rbacGroup = 'rbac.authorization.k8s.io';
const validVerbs = [
  '*',
  'get',
  'delete',
  'list',
  'create',
  'update',
  'patch',
  'watch',
  'proxy',
  'deletecollection',
  'use',
  'bind',
  'escalate',
  'impersonate',
  'approve',
  'sign',
];

async function rules(ctx: CommandContext, allowNonResource: boolean): Promise<Record<string, unknown>[]> {
  const verbs = ctx.flags.strings('verb');
  if (verbs.length === 0) throw usageError(ctx.path, 'at least one verb must be specified');
  const resources = ctx.flags.strings('resource');
  const nonResourceURLs = allowNonResource ? ctx.flags.strings('non-resource-url') : [];
  if (resources.length === 0 && nonResourceURLs.length === 0)
    throw usageError(
      ctx.path,
      allowNonResource
        ? 'one of resource or nonResourceURL must be specified'
        : 'at least one resource must be specified',
    );
  for (const v of verbs) if (!validVerbs.includes(v)) throw new KubectlError(`error: invalid verb: '${v}'`);
  const nonResourceVerbs = ['*', 'get', 'post', 'put', 'delete', 'patch', 'head', 'options'];
  for (const url of nonResourceURLs) {
    if (!url.startsWith('/')) throw new KubectlError('error: nonResourceURL should start with /');
  }
  if (nonResourceURLs.length > 0)
    for (const v of verbs)
      if (!nonResourceVerbs.includes(v))
        throw new KubectlError(`error: invalid verb: '${v}' for nonResourceURL`);
  const mapper = await ctx.f.mapper();
  const byGroup = new Map<string, string[]>();
  for (const r of resources) {
    const [head = '', sub] = r.split('/');
    const dot = head.indexOf('.');
    const resource = dot < 0 ? head : head.slice(0, dot);
    const group = dot < 0 ? '' : head.slice(dot + 1);
    let name = resource;
    let g = group;
    if (resource !== '*') {
      try {
        const m = mapper.mappingFor(group === '' ? resource : `${resource}.${group}`);
        name = m.resource;
        g = m.group;
      } catch {
        throw new KubectlError(`error: resource "${resource}" doesn't exist`);
      }
    }
    const full = sub !== undefined ? `${name}/${sub}` : name;
    const list = byGroup.get(g) ?? [];
    if (!list.includes(full)) list.push(full);
    byGroup.set(g, list);
  }
  const names = ctx.flags.strings('resource-name');
  const out: Record<string, unknown>[] = [...byGroup.keys()].sort().map((g) => ({
    verbs,
    apiGroups: [g],
    resources: byGroup.get(g),
    ...(names.length > 0 ? { resourceNames: names } : {}),
  }));
  if (nonResourceURLs.length > 0) out.push({ verbs, nonResourceURLs });
  return out;
}

const ruleFlags = [
  { name: 'verb', type: 'stringSlice' as const },
  { name: 'resource', type: 'stringSlice' as const },
  { name: 'resource-name', type: 'stringArray' as const },
];

export const createRole = generator({
  name: 'role',
  short: 'Create a role with single rule',
  flags: ruleFlags,
  async build(ctx, name, namespace, enforce) {
    return {
      object: {
        kind: 'Role',
        apiVersion: `${rbacGroup}/v1`,
        metadata: meta(name, enforce ? namespace : undefined),
        rules: await rules(ctx, false),
      },
      path: typedPath(rbacGroup, 'v1', 'roles', namespace),
    };
  },
});

export const createClusterRole = generator({
  name: 'clusterrole',
  short: 'Create a cluster role',
  flags: [
    ...ruleFlags,
    { name: 'non-resource-url', type: 'stringSlice' },
    { name: 'aggregation-rule', type: 'stringToString' },
  ],
  async build(ctx, name) {
    const aggregation = ctx.flags.map('aggregation-rule');
    const aggregated = Object.keys(aggregation).length > 0;
    return {
      object: {
        kind: 'ClusterRole',
        apiVersion: `${rbacGroup}/v1`,
        metadata: meta(name, undefined),
        ...(aggregated
          ? { rules: null, aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregation }] } }
          : { rules: await rules(ctx, true) }),
      },
      path: typedPath(rbacGroup, 'v1', 'clusterroles'),
    };
  },
});

function subjects(ctx: CommandContext): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const user of ctx.flags.strings('user')) out.push({ kind: 'User', apiGroup: rbacGroup, name: user });
  for (const group of ctx.flags.strings('group'))
    out.push({ kind: 'Group', apiGroup: rbacGroup, name: group });
  for (const sa of ctx.flags.strings('serviceaccount')) {
    const parts = sa.split(':');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '')
      throw new KubectlError(`error: serviceaccount must be <namespace>:<name>`);
    out.push({ kind: 'ServiceAccount', name: parts[1], namespace: parts[0] });
  }
  return out;
}

const bindingFlags = [
  { name: 'clusterrole', type: 'string' as const },
  { name: 'user', type: 'stringArray' as const },
  { name: 'group', type: 'stringArray' as const },
  { name: 'serviceaccount', type: 'stringArray' as const },
];

export const createRoleBinding = generator({
  name: 'rolebinding',
  short: 'Create a role binding for a particular role or cluster role',
  flags: [...bindingFlags, { name: 'role', type: 'string' }],
  async build(ctx, name, namespace, enforce) {
    const role = ctx.flags.string('role');
    const clusterRole = ctx.flags.string('clusterrole');
    if ((role === '') === (clusterRole === ''))
      throw new KubectlError('error: exactly one of clusterrole or role must be specified');
    return {
      object: {
        kind: 'RoleBinding',
        apiVersion: `${rbacGroup}/v1`,
        metadata: meta(name, enforce ? namespace : undefined),
        subjects: subjects(ctx),
        roleRef: {
          apiGroup: rbacGroup,
          kind: role !== '' ? 'Role' : 'ClusterRole',
          name: role !== '' ? role : clusterRole,
        },
      },
      path: typedPath(rbacGroup, 'v1', 'rolebindings', namespace),
      wrapError: 'failed to create rolebinding',
    };
  },
});

export const createClusterRoleBinding = generator({
  name: 'clusterrolebinding',
  short: 'Create a cluster role binding for a particular cluster role',
  flags: bindingFlags,
  required: ['clusterrole'],
  async build(ctx, name) {
    return {
      object: {
        kind: 'ClusterRoleBinding',
        apiVersion: `${rbacGroup}/v1`,
        metadata: meta(name, undefined),
        subjects: subjects(ctx),
        roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: ctx.flags.string('clusterrole') },
      },
      path: typedPath(rbacGroup, 'v1', 'clusterrolebindings'),
      wrapError: 'failed to create clusterrolebinding',
    };
  },
});
