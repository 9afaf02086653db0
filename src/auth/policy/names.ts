/**
 * The vocabulary of the bootstrap policy under a naming profile: API group
 * names (`authorization.k8s.io` becomes `authorization.orch.io`), the
 * bootstrapping label, the autoupdate annotation, the aggregation labels,
 * the built-in signer names, the system namespaces and the well-known user
 * and group names; plus the small builders the data files use to write
 * rules the way the real policy builder does (every list sorted, so stored
 * objects compare equal to the upstream golden data).
 */

import type { NamingProfile, SignerKind } from '../../machinery/naming';
import type { ClusterRole, PolicyRule, RoleRef, Subject } from './types';

/** Verb sets the upstream policy reuses. */
export const READ = 'get list watch';
export const READ_WRITE = 'get list watch create update patch delete deletecollection';
export const WRITE = 'create update patch delete deletecollection';

/** Well-known identities, spelled as upstream (they carry no product name). */
export const USERS = {
  kubeControllerManager: 'system:kube-controller-manager',
  kubeScheduler: 'system:kube-scheduler',
  kubeProxy: 'system:kube-proxy',
} as const;

export const GROUPS = {
  masters: 'system:masters',
  monitoring: 'system:monitoring',
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  serviceAccounts: 'system:serviceaccounts',
} as const;

/** Prefix of every controller role and binding name. */
export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

export interface PolicyNames {
  profile: NamingProfile;
  /** API group names used in rules. */
  g: {
    core: string;
    apps: string;
    autoscaling: string;
    batch: string;
    extensions: string;
    policy: string;
    authentication: string;
    authorization: string;
    certificates: string;
    coordination: string;
    discovery: string;
    events: string;
    networking: string;
    node: string;
    rbac: string;
    storage: string;
    metrics: string;
    customMetrics: string;
    externalMetrics: string;
  };
  rbacApiVersion: string;
  /** `kubernetes.io/bootstrapping` under the profile. */
  bootstrappingLabel: string;
  /** `rbac.authorization.kubernetes.io/autoupdate` under the profile. */
  autoupdateAnnotation: string;
  /** `rbac.authorization.k8s.io/aggregate-to-<role>` under the profile. */
  aggregateTo(role: 'admin' | 'edit' | 'view'): string;
  /** The built-in signers' names (the profile's). */
  signers: Readonly<Record<SignerKind, string>>;
  /** Approver ClusterRole names, one per built-in signer. */
  approverRoles: Record<SignerKind, string>;
  /** `system:certificates.k8s.io:certificatesigningrequests:<kind>` under the profile. */
  csrRole(kind: 'nodeclient' | 'selfnodeclient'): string;
  systemNamespace: string;
  publicNamespace: string;
}

/**
 * Names under a profile. The signers are the profile's (the specification's renaming:
 * `orch.io/apiserver-client-node-agent`); the approver roles are named after their signer, as upstream's are.
 */
export function policyNames(profile: NamingProfile): PolicyNames {
  const s = (base: string): string => profile.suffixed(base);
  const certificates = s('certificates');
  // The approver roles are named after the signer's path (the name without its domain).
  const approver = (kind: SignerKind): string =>
    `system:${certificates}:${profile.signers[kind].slice(profile.prefix.length)}-approver`;
  return {
    profile,
    g: {
      core: '',
      apps: 'apps',
      autoscaling: 'autoscaling',
      batch: 'batch',
      extensions: 'extensions',
      policy: 'policy',
      authentication: s('authentication'),
      authorization: s('authorization'),
      certificates,
      coordination: s('coordination'),
      discovery: s('discovery'),
      events: s('events'),
      networking: s('networking'),
      node: s('node'),
      rbac: s('rbac.authorization'),
      storage: s('storage'),
      metrics: s('metrics'),
      customMetrics: s('custom.metrics'),
      externalMetrics: s('external.metrics'),
    },
    rbacApiVersion: `${s('rbac.authorization')}/v1`,
    bootstrappingLabel: profile.prefixed('bootstrapping'),
    autoupdateAnnotation: profile.subPrefixed('rbac.authorization', 'autoupdate'),
    aggregateTo: (role) => `${s('rbac.authorization')}/aggregate-to-${role}`,
    signers: profile.signers,
    approverRoles: {
      apiserverClient: approver('apiserverClient'),
      apiserverClientKubelet: approver('apiserverClientKubelet'),
      kubeletServing: approver('kubeletServing'),
      legacyUnknown: approver('legacyUnknown'),
    },
    csrRole: (kind) => `system:${certificates}:certificatesigningrequests:${kind}`,
    systemNamespace: profile.systemNamespace,
    publicNamespace: profile.publicNamespace,
  };
}

function words(list: string | readonly string[]): string[] {
  return typeof list === 'string' ? list.split(' ').filter((w) => w !== '') : [...list];
}

function sorted(list: string[]): string[] {
  // Byte order, as Go's sort.Strings (not locale order).
  return list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A resource rule. Verbs and resources are space-separated words or lists; every list is sorted, as the
 * upstream rule builder does, so the stored order is the real server's.
 */
export function rule(
  verbs: string | readonly string[],
  groups: readonly string[],
  resources: string | readonly string[],
  resourceNames?: string | readonly string[],
): PolicyRule {
  const r: PolicyRule = {
    verbs: sorted(words(verbs)),
    apiGroups: sorted([...groups]),
    resources: sorted(words(resources)),
  };
  if (resourceNames !== undefined) r.resourceNames = sorted(words(resourceNames));
  return r;
}

/** A non-resource URL rule. */
export function urls(verbs: string | readonly string[], paths: string | readonly string[]): PolicyRule {
  return { verbs: sorted(words(verbs)), nonResourceURLs: sorted(words(paths)) };
}

/** The rule nearly every component gets: writing events in both event groups. */
export function eventsRule(n: PolicyNames): PolicyRule {
  return rule('create update patch', [n.g.core, n.g.events], 'events');
}

/** Labels and annotations every bootstrap object carries (upstream `addDefaultMetadata`). */
export function defaultMetadata(
  n: PolicyNames,
  extraLabels: Record<string, string> = {},
): { labels: Record<string, string>; annotations: Record<string, string> } {
  return {
    labels: { ...extraLabels, [n.bootstrappingLabel]: 'rbac-defaults' },
    annotations: { [n.autoupdateAnnotation]: 'true' },
  };
}

export function clusterRole(
  n: PolicyNames,
  name: string,
  rules: PolicyRule[] | null,
  options: { labels?: Record<string, string>; aggregateFrom?: 'admin' | 'edit' | 'view' } = {},
): ClusterRole {
  const meta = defaultMetadata(n, options.labels);
  const role: ClusterRole = {
    apiVersion: n.rbacApiVersion,
    kind: 'ClusterRole',
    metadata: { name, labels: meta.labels, annotations: meta.annotations },
    rules,
  };
  if (options.aggregateFrom !== undefined)
    return {
      apiVersion: role.apiVersion,
      kind: role.kind,
      metadata: role.metadata,
      aggregationRule: {
        clusterRoleSelectors: [{ matchLabels: { [n.aggregateTo(options.aggregateFrom)]: 'true' } }],
      },
      rules,
    };
  return role;
}

export function user(n: PolicyNames, name: string): Subject {
  return { kind: 'User', apiGroup: n.g.rbac, name };
}

export function group(n: PolicyNames, name: string): Subject {
  return { kind: 'Group', apiGroup: n.g.rbac, name };
}

export function serviceAccount(namespace: string, name: string): Subject {
  return { kind: 'ServiceAccount', name, namespace };
}

export function roleRef(n: PolicyNames, kind: 'Role' | 'ClusterRole', name: string): RoleRef {
  return { apiGroup: n.g.rbac, kind, name };
}
