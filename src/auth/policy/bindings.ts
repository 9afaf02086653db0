/**
 * The default ClusterRoleBindings of the v1.27 bootstrap policy: those of
 * the user-facing and component roles (upstream `ClusterRoleBindings()`,
 * golden `testdata/cluster-role-bindings.yaml`) and one per controller role,
 * binding `system:controller:<name>` to the service account `<name>` in the
 * system namespace (golden `testdata/controller-role-bindings.yaml`). In the
 * golden files' order (by name).
 */

import { CONTROLLER_NAMES } from './controller-roles';
import {
  CONTROLLER_ROLE_PREFIX,
  GROUPS,
  USERS,
  defaultMetadata,
  group,
  roleRef,
  serviceAccount,
  user,
  type PolicyNames,
} from './names';
import type { ClusterRoleBinding, Subject } from './types';

export function clusterRoleBinding(
  n: PolicyNames,
  name: string,
  subjects: Subject[] | null,
  roleName: string = name,
): ClusterRoleBinding {
  const meta = defaultMetadata(n);
  const binding: ClusterRoleBinding = {
    apiVersion: n.rbacApiVersion,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: meta.labels, annotations: meta.annotations },
    roleRef: roleRef(n, 'ClusterRole', roleName),
  };
  // `subjects` is omitted when empty, as the real server encodes it.
  if (subjects !== null) binding.subjects = subjects;
  return binding;
}

export function defaultClusterRoleBindings(n: PolicyNames): ClusterRoleBinding[] {
  return [
    clusterRoleBinding(n, 'cluster-admin', [group(n, GROUPS.masters)]),
    clusterRoleBinding(n, 'system:basic-user', [group(n, GROUPS.authenticated)]),
    // Discovery is for authenticated users only since v1.14; the public part moved to public-info-viewer.
    clusterRoleBinding(n, 'system:discovery', [group(n, GROUPS.authenticated)]),
    clusterRoleBinding(n, 'system:kube-controller-manager', [user(n, USERS.kubeControllerManager)]),
    clusterRoleBinding(n, 'system:kube-dns', [serviceAccount(n.systemNamespace, 'kube-dns')]),
    clusterRoleBinding(n, 'system:kube-scheduler', [user(n, USERS.kubeScheduler)]),
    clusterRoleBinding(n, 'system:monitoring', [group(n, GROUPS.monitoring)]),
    // Kept with no subjects since the Node authorizer took over (v1.8), so upgraded clusters lose the
    // old `system:nodes` subject only when an administrator removes it.
    clusterRoleBinding(n, 'system:node', null),
    clusterRoleBinding(n, 'system:node-proxier', [user(n, USERS.kubeProxy)]),
    clusterRoleBinding(n, 'system:public-info-viewer', [
      group(n, GROUPS.authenticated),
      group(n, GROUPS.unauthenticated),
    ]),
    // Every workload may read the issuer discovery documents its own token already points to.
    clusterRoleBinding(n, 'system:service-account-issuer-discovery', [group(n, GROUPS.serviceAccounts)]),
    clusterRoleBinding(n, 'system:volume-scheduler', [user(n, USERS.kubeScheduler)]),
  ];
}

export function controllerClusterRoleBindings(n: PolicyNames): ClusterRoleBinding[] {
  return CONTROLLER_NAMES.map((name) =>
    clusterRoleBinding(n, `${CONTROLLER_ROLE_PREFIX}${name}`, [serviceAccount(n.systemNamespace, name)]),
  );
}
