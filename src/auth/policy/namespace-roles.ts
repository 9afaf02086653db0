/**
 * The namespaced Roles and RoleBindings of the v1.27 bootstrap policy
 * (upstream `NamespaceRoles()`/`NamespaceRoleBindings()`, golden files
 * `testdata/namespace-roles.yaml` and `namespace-role-bindings.yaml`): the
 * public namespace holds the bootstrap signer's role on the `cluster-info`
 * ConfigMap; the system namespace holds the authentication-config reader,
 * the leader-locking roles of the controller manager and scheduler, and the
 * bootstrap signer, cloud provider and token cleaner roles. In the golden
 * files' order (namespace, then name). In v1.27 leader locking still names
 * ConfigMaps (the lease-only form with LeaseCandidates came in v1.31+).
 */

import {
  READ,
  USERS,
  defaultMetadata,
  eventsRule,
  roleRef,
  rule,
  serviceAccount,
  user,
  type PolicyNames,
} from './names';
import type { PolicyRule, Role, RoleBinding, Subject } from './types';

function role(n: PolicyNames, namespace: string, name: string, rules: PolicyRule[]): Role {
  const meta = defaultMetadata(n);
  return {
    apiVersion: n.rbacApiVersion,
    kind: 'Role',
    metadata: { name, namespace, labels: meta.labels, annotations: meta.annotations },
    rules,
  };
}

function roleBinding(
  n: PolicyNames,
  namespace: string,
  name: string,
  subjects: Subject[],
  roleName: string = name,
): RoleBinding {
  const meta = defaultMetadata(n);
  return {
    apiVersion: n.rbacApiVersion,
    kind: 'RoleBinding',
    metadata: { name, namespace, labels: meta.labels, annotations: meta.annotations },
    roleRef: roleRef(n, 'Role', roleName),
    subjects,
  };
}

export function defaultNamespaceRoles(n: PolicyNames): { namespace: string; role: Role }[] {
  const core = [n.g.core];
  const sys = n.systemNamespace;
  const pub = n.publicNamespace;
  const roles = [
    role(n, pub, 'system:controller:bootstrap-signer', [
      rule(READ, core, 'configmaps'),
      // It signs and rewrites only the public cluster-info ConfigMap.
      rule('update', core, 'configmaps', 'cluster-info'),
      eventsRule(n),
    ]),
    role(n, sys, 'extension-apiserver-authentication-reader', [
      // The one ConfigMap that publishes the server's client-authentication configuration.
      rule(READ, core, 'configmaps', 'extension-apiserver-authentication'),
    ]),
    role(n, sys, 'system::leader-locking-kube-controller-manager', [
      rule('watch', core, 'configmaps'),
      rule('get update', core, 'configmaps', 'kube-controller-manager'),
      rule('get watch list create update', [n.g.coordination], 'leases'),
    ]),
    role(n, sys, 'system::leader-locking-kube-scheduler', [
      rule('watch', core, 'configmaps'),
      rule('get update', core, 'configmaps', 'kube-scheduler'),
    ]),
    role(n, sys, 'system:controller:bootstrap-signer', [rule(READ, core, 'secrets')]),
    // Deprecated upstream since v1.10 but still part of the default policy.
    role(n, sys, 'system:controller:cloud-provider', [rule('create get list watch', core, 'configmaps')]),
    role(n, sys, 'system:controller:token-cleaner', [
      rule('get list watch delete', core, 'secrets'),
      eventsRule(n),
    ]),
  ];
  return roles.map((r) => ({ namespace: r.metadata.namespace, role: r }));
}

export function defaultNamespaceRoleBindings(
  n: PolicyNames,
): { namespace: string; roleBinding: RoleBinding }[] {
  const sys = n.systemNamespace;
  const pub = n.publicNamespace;
  const bindings = [
    roleBinding(n, pub, 'system:controller:bootstrap-signer', [serviceAccount(sys, 'bootstrap-signer')]),
    roleBinding(
      n,
      sys,
      'system::extension-apiserver-authentication-reader',
      [user(n, USERS.kubeControllerManager), user(n, USERS.kubeScheduler)],
      'extension-apiserver-authentication-reader',
    ),
    roleBinding(n, sys, 'system::leader-locking-kube-controller-manager', [
      user(n, USERS.kubeControllerManager),
      serviceAccount(sys, 'kube-controller-manager'),
      // The lease-based leader election of the controller manager's controllers runs under this account.
      serviceAccount(sys, 'leader-election-controller'),
    ]),
    roleBinding(n, sys, 'system::leader-locking-kube-scheduler', [
      user(n, USERS.kubeScheduler),
      serviceAccount(sys, 'kube-scheduler'),
    ]),
    roleBinding(n, sys, 'system:controller:bootstrap-signer', [serviceAccount(sys, 'bootstrap-signer')]),
    roleBinding(n, sys, 'system:controller:cloud-provider', [serviceAccount(sys, 'cloud-provider')]),
    roleBinding(n, sys, 'system:controller:token-cleaner', [serviceAccount(sys, 'token-cleaner')]),
  ];
  return bindings.map((b) => ({ namespace: b.metadata.namespace, roleBinding: b }));
}
