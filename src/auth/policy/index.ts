/**
 * The default RBAC policy a v1.27 server ensures at start-up with
 * `--authorization-mode=Node,RBAC`, as data under a naming profile: 62
 * ClusterRoles (31 default roles and 31 controller roles), 43
 * ClusterRoleBindings (12 + 31), and 7 Roles and 7 RoleBindings in the
 * system and public namespaces. Every object carries the bootstrapping label
 * (`kubernetes.io/bootstrapping: rbac-defaults`) and the autoupdate
 * annotation set to "true", renamed by the profile. `reconcile.ts` plans how
 * to bring stored objects in line with it; the aggregation controller fills
 * admin, edit and view.
 */

import type { NamingProfile } from '../../machinery/naming';
import { controllerClusterRoleBindings, defaultClusterRoleBindings } from './bindings';
import { defaultClusterRoles } from './cluster-roles';
import { controllerClusterRoles } from './controller-roles';
import { defaultNamespaceRoleBindings, defaultNamespaceRoles } from './namespace-roles';
import { policyNames } from './names';
import type { BootstrapPolicy, ClusterRoleBinding } from './types';

export type * from './types';
export { CONTROLLER_NAMES, type ControllerName } from './controller-roles';
export { CONTROLLER_ROLE_PREFIX, GROUPS, USERS, policyNames, type PolicyNames } from './names';

/** Builds the whole default policy afresh (callers may mutate what they get). */
export function bootstrapPolicy(profile: NamingProfile): BootstrapPolicy {
  const n = policyNames(profile);
  const clusterRoleBindings = [...defaultClusterRoleBindings(n), ...controllerClusterRoleBindings(n)];
  const publicInfoViewer = clusterRoleBindings.find((b) => b.metadata.name === 'system:public-info-viewer');
  const clusterRoleBindingsToSplit: Record<string, ClusterRoleBinding> = {};
  // Clusters from before v1.14 granted discovery to unauthenticated users through `system:discovery`;
  // copying its subjects into the new public-info-viewer binding keeps what they had.
  if (publicInfoViewer !== undefined)
    clusterRoleBindingsToSplit['system:discovery'] = structuredClone(publicInfoViewer);
  return {
    clusterRoles: [...defaultClusterRoles(n), ...controllerClusterRoles(n)],
    clusterRoleBindings,
    roles: defaultNamespaceRoles(n),
    roleBindings: defaultNamespaceRoleBindings(n),
    clusterRolesToAggregate: {
      admin: 'system:aggregate-to-admin',
      edit: 'system:aggregate-to-edit',
      view: 'system:aggregate-to-view',
    },
    clusterRoleBindingsToSplit,
  };
}

/** The label every bootstrap object carries and the annotation that opts an object out of reconciliation. */
export function policyKeys(profile: NamingProfile): {
  bootstrappingLabel: string;
  autoupdateAnnotation: string;
} {
  const n = policyNames(profile);
  return { bootstrappingLabel: n.bootstrappingLabel, autoupdateAnnotation: n.autoupdateAnnotation };
}
