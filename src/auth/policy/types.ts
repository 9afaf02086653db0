/**
 * Plain shapes of the rbac/v1 objects the bootstrap policy, its start-up
 * reconciliation and the ClusterRole aggregation controller exchange. They
 * describe the JSON the API serves (fields in the real server's encoding
 * order), so objects built here can be sent through the API unchanged and
 * objects read back can be compared with them.
 */

import type { KubeObject, ObjectMeta } from '../../api/meta';

/** One rule of a role: keys in the order the real server encodes them. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface AggregationRule {
  clusterRoleSelectors?: LabelSelector[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  /** The RBAC group for users and groups; absent for service accounts (the core group). */
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole';
  name: string;
}

export interface ClusterRole extends KubeObject {
  apiVersion: string;
  kind: 'ClusterRole';
  metadata: ObjectMeta & { name: string };
  aggregationRule?: AggregationRule;
  /** `null` as the real server stores an aggregated role before the controller fills it. */
  rules: PolicyRule[] | null;
}

export interface Role extends KubeObject {
  apiVersion: string;
  kind: 'Role';
  metadata: ObjectMeta & { name: string; namespace: string };
  rules: PolicyRule[] | null;
}

export interface ClusterRoleBinding extends KubeObject {
  apiVersion: string;
  kind: 'ClusterRoleBinding';
  metadata: ObjectMeta & { name: string };
  roleRef: RoleRef;
  /** `null` for the kept-but-emptied `system:node` binding, as upstream. */
  subjects?: Subject[] | null;
}

export interface RoleBinding extends KubeObject {
  apiVersion: string;
  kind: 'RoleBinding';
  metadata: ObjectMeta & { name: string; namespace: string };
  roleRef: RoleRef;
  subjects?: Subject[] | null;
}

export type RbacObject = ClusterRole | Role | ClusterRoleBinding | RoleBinding;

/** Everything the server ensures at start-up. */
export interface BootstrapPolicy {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: ClusterRoleBinding[];
  roles: { namespace: string; role: Role }[];
  roleBindings: { namespace: string; roleBinding: RoleBinding }[];
  /**
   * Old non-aggregated role name → the aggregate-to role that receives its rules when a cluster upgrades
   * from a version where admin/edit/view were plain roles (upstream `ClusterRolesToAggregate`).
   */
  clusterRolesToAggregate: Record<string, string>;
  /**
   * Existing binding name → binding template whose subjects, labels and annotations are copied from it
   * when the template does not exist yet (upstream `ClusterRoleBindingsToSplit`).
   */
  clusterRoleBindingsToSplit: Record<string, ClusterRoleBinding>;
}
