// The v1.27 bootstrap policy as data: the counts of every kind, the
// metadata every object carries, spot checks of roles against upstream's
// golden files (testdata/cluster-roles.yaml with default feature gates,
// kubernetes profile), and the renaming under the orch profile.
//
// Counts: 62 ClusterRoles (31 + 31 controller roles), 43 ClusterRoleBindings
// (12 + 31), 7 Roles, 7 RoleBindings. The v1.28 observation reports the same
// 62/43: the controller roles v1.28 adds (legacy-service-account-token-cleaner,
// validatingadmissionpolicy-status-controller) are behind feature gates that
// are off by default there. What differs between the two is content, not
// count (v1.28 drops nothing and adds no ungated role).
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { namingProfile } from '../../machinery/naming';
import { bootstrapPolicy } from './index';
import type { ClusterRole } from './types';

const k8s = bootstrapPolicy(namingProfile('kubernetes'));
const orch = bootstrapPolicy(namingProfile('orch'));

function role(policy: typeof k8s, name: string): ClusterRole {
  const r = policy.clusterRoles.find((c) => c.metadata.name === name);
  if (r === undefined) throw new Error(`no ClusterRole ${name}`);
  return r;
}

/** Excerpts of upstream's golden cluster-roles.yaml (v1.27, default gates), as data. */
const golden = parse(`
- aggregationRule:
    clusterRoleSelectors:
    - matchLabels:
        rbac.authorization.k8s.io/aggregate-to-admin: "true"
  apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
    name: admin
  rules: null
- aggregationRule:
    clusterRoleSelectors:
    - matchLabels:
        rbac.authorization.k8s.io/aggregate-to-edit: "true"
  apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
      rbac.authorization.k8s.io/aggregate-to-admin: "true"
    name: edit
  rules: null
- aggregationRule:
    clusterRoleSelectors:
    - matchLabels:
        rbac.authorization.k8s.io/aggregate-to-view: "true"
  apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
      rbac.authorization.k8s.io/aggregate-to-edit: "true"
    name: view
  rules: null
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
      rbac.authorization.k8s.io/aggregate-to-admin: "true"
    name: system:aggregate-to-admin
  rules:
  - apiGroups: [authorization.k8s.io]
    resources: [localsubjectaccessreviews]
    verbs: [create]
  - apiGroups: [rbac.authorization.k8s.io]
    resources: [rolebindings, roles]
    verbs: [create, delete, deletecollection, get, list, patch, update, watch]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
      rbac.authorization.k8s.io/aggregate-to-edit: "true"
    name: system:aggregate-to-edit
  rules:
  - apiGroups: [""]
    resources: [pods/attach, pods/exec, pods/portforward, pods/proxy, secrets, services/proxy]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [serviceaccounts]
    verbs: [impersonate]
  - apiGroups: [""]
    resources: [pods, pods/attach, pods/exec, pods/portforward, pods/proxy]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [""]
    resources: [pods/eviction]
    verbs: [create]
  - apiGroups: [""]
    resources: [configmaps, events, persistentvolumeclaims, replicationcontrollers,
      replicationcontrollers/scale, secrets, serviceaccounts, services, services/proxy]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [""]
    resources: [serviceaccounts/token]
    verbs: [create]
  - apiGroups: [apps]
    resources: [daemonsets, deployments, deployments/rollback, deployments/scale, replicasets,
      replicasets/scale, statefulsets, statefulsets/scale]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [autoscaling]
    resources: [horizontalpodautoscalers]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [batch]
    resources: [cronjobs, jobs]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [extensions]
    resources: [daemonsets, deployments, deployments/rollback, deployments/scale, ingresses,
      networkpolicies, replicasets, replicasets/scale, replicationcontrollers/scale]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [policy]
    resources: [poddisruptionbudgets]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [networking.k8s.io]
    resources: [ingresses, networkpolicies]
    verbs: [create, delete, deletecollection, patch, update]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [create, delete, deletecollection, get, list, patch, update, watch]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
      rbac.authorization.k8s.io/aggregate-to-view: "true"
    name: system:aggregate-to-view
  rules:
  - apiGroups: [""]
    resources: [configmaps, endpoints, persistentvolumeclaims, persistentvolumeclaims/status, pods,
      replicationcontrollers, replicationcontrollers/scale, serviceaccounts, services, services/status]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [bindings, events, limitranges, namespaces/status, pods/log, pods/status,
      replicationcontrollers/status, resourcequotas, resourcequotas/status]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [namespaces]
    verbs: [get, list, watch]
  - apiGroups: [discovery.k8s.io]
    resources: [endpointslices]
    verbs: [get, list, watch]
  - apiGroups: [apps]
    resources: [controllerrevisions, daemonsets, daemonsets/status, deployments, deployments/scale,
      deployments/status, replicasets, replicasets/scale, replicasets/status, statefulsets,
      statefulsets/scale, statefulsets/status]
    verbs: [get, list, watch]
  - apiGroups: [autoscaling]
    resources: [horizontalpodautoscalers, horizontalpodautoscalers/status]
    verbs: [get, list, watch]
  - apiGroups: [batch]
    resources: [cronjobs, cronjobs/status, jobs, jobs/status]
    verbs: [get, list, watch]
  - apiGroups: [extensions]
    resources: [daemonsets, daemonsets/status, deployments, deployments/scale, deployments/status,
      ingresses, ingresses/status, networkpolicies, replicasets, replicasets/scale, replicasets/status,
      replicationcontrollers/scale]
    verbs: [get, list, watch]
  - apiGroups: [policy]
    resources: [poddisruptionbudgets, poddisruptionbudgets/status]
    verbs: [get, list, watch]
  - apiGroups: [networking.k8s.io]
    resources: [ingresses, ingresses/status, networkpolicies]
    verbs: [get, list, watch]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
    name: system:basic-user
  rules:
  - apiGroups: [authorization.k8s.io]
    resources: [selfsubjectaccessreviews, selfsubjectrulesreviews]
    verbs: [create]
  - apiGroups: [authentication.k8s.io]
    resources: [selfsubjectreviews]
    verbs: [create]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
    name: system:discovery
  rules:
  - nonResourceURLs: [/api, /api/*, /apis, /apis/*, /healthz, /livez, /openapi, /openapi/*, /readyz,
      /version, /version/]
    verbs: [get]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
    name: system:public-info-viewer
  rules:
  - nonResourceURLs: [/healthz, /livez, /readyz, /version, /version/]
    verbs: [get]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: ClusterRole
  metadata:
    annotations:
      rbac.authorization.kubernetes.io/autoupdate: "true"
    labels:
      kubernetes.io/bootstrapping: rbac-defaults
    name: system:node
  rules:
  - apiGroups: [authentication.k8s.io]
    resources: [tokenreviews]
    verbs: [create]
  - apiGroups: [authorization.k8s.io]
    resources: [localsubjectaccessreviews, subjectaccessreviews]
    verbs: [create]
  - apiGroups: [""]
    resources: [services]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [nodes]
    verbs: [create, get, list, watch]
  - apiGroups: [""]
    resources: [nodes/status]
    verbs: [patch, update]
  - apiGroups: [""]
    resources: [nodes]
    verbs: [patch, update]
  - apiGroups: [""]
    resources: [events]
    verbs: [create, patch, update]
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [pods]
    verbs: [create, delete]
  - apiGroups: [""]
    resources: [pods/status]
    verbs: [patch, update]
  - apiGroups: [""]
    resources: [pods/eviction]
    verbs: [create]
  - apiGroups: [""]
    resources: [configmaps, secrets]
    verbs: [get, list, watch]
  - apiGroups: [""]
    resources: [persistentvolumeclaims, persistentvolumes]
    verbs: [get]
  - apiGroups: [""]
    resources: [endpoints]
    verbs: [get]
  - apiGroups: [certificates.k8s.io]
    resources: [certificatesigningrequests]
    verbs: [create, get, list, watch]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [create, delete, get, patch, update]
  - apiGroups: [storage.k8s.io]
    resources: [volumeattachments]
    verbs: [get]
  - apiGroups: [""]
    resources: [serviceaccounts/token]
    verbs: [create]
  - apiGroups: [""]
    resources: [persistentvolumeclaims/status]
    verbs: [get, patch, update]
  - apiGroups: [storage.k8s.io]
    resources: [csidrivers]
    verbs: [get, list, watch]
  - apiGroups: [storage.k8s.io]
    resources: [csinodes]
    verbs: [create, delete, get, patch, update]
  - apiGroups: [node.k8s.io]
    resources: [runtimeclasses]
    verbs: [get, list, watch]
`) as ClusterRole[];

describe('bootstrap policy (v1.27, default feature gates)', () => {
  it('has the real counts of every kind', () => {
    expect(k8s.clusterRoles).toHaveLength(62);
    expect(k8s.clusterRoles.filter((r) => r.metadata.name.startsWith('system:controller:'))).toHaveLength(31);
    expect(k8s.clusterRoleBindings).toHaveLength(43);
    expect(k8s.roles).toHaveLength(7);
    expect(k8s.roleBindings).toHaveLength(7);
    expect(k8s.roles.filter((r) => r.namespace === 'kube-system')).toHaveLength(6);
    expect(k8s.roles.filter((r) => r.namespace === 'kube-public').map((r) => r.role.metadata.name)).toEqual([
      'system:controller:bootstrap-signer',
    ]);
    for (const list of [k8s.clusterRoles, k8s.clusterRoleBindings]) {
      const names = list.map((o) => o.metadata.name);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it('labels and annotates every object as a bootstrap default', () => {
    const all = [
      ...k8s.clusterRoles,
      ...k8s.clusterRoleBindings,
      ...k8s.roles.map((r) => r.role),
      ...k8s.roleBindings.map((b) => b.roleBinding),
    ];
    for (const o of all) {
      expect(o.apiVersion).toBe('rbac.authorization.k8s.io/v1');
      expect(o.metadata.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(o.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    }
  });

  it.each(golden.map((g) => [g.metadata.name, g] as const))('%s matches the golden data', (name, want) => {
    const got = role(k8s, name);
    // Key order of rules is the real encoding order; compare structure, then the JSON for rule order.
    expect(got).toEqual(want);
    expect(JSON.stringify(got.rules?.map((r) => [r.apiGroups, r.resources, r.verbs]))).toBe(
      JSON.stringify(want.rules?.map((r) => [r.apiGroups, r.resources, r.verbs])),
    );
  });

  it('binds every controller role to its service account in the system namespace', () => {
    const controllers = k8s.clusterRoleBindings.filter((b) =>
      b.metadata.name.startsWith('system:controller:'),
    );
    expect(controllers).toHaveLength(31);
    for (const b of controllers) {
      expect(b.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: b.metadata.name,
      });
      expect(b.subjects).toEqual([
        {
          kind: 'ServiceAccount',
          name: b.metadata.name.slice('system:controller:'.length),
          namespace: 'kube-system',
        },
      ]);
      expect(k8s.clusterRoles.some((r) => r.metadata.name === b.roleRef.name)).toBe(true);
    }
  });

  it('keeps the emptied system:node binding and the well-known subjects', () => {
    const byName = new Map(k8s.clusterRoleBindings.map((b) => [b.metadata.name, b]));
    expect(byName.get('system:node')?.subjects).toBeUndefined();
    expect(byName.get('cluster-admin')?.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' },
    ]);
    expect(byName.get('system:public-info-viewer')?.subjects?.map((s) => s.name)).toEqual([
      'system:authenticated',
      'system:unauthenticated',
    ]);
    expect(byName.get('system:discovery')?.subjects?.map((s) => s.name)).toEqual(['system:authenticated']);
    expect(byName.get('system:kube-dns')?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' },
    ]);
  });

  it('renames groups, namespaces, keys and signers under the orch profile', () => {
    expect(orch.clusterRoles).toHaveLength(62);
    const all = JSON.stringify(orch);
    expect(all).not.toMatch(/k8s\.io|kubernetes\.io|kube-system|kube-public/);
    const view = role(orch, 'view');
    expect(view.apiVersion).toBe('rbac.authorization.orch.io/v1');
    expect(view.metadata.labels).toEqual({
      'orch.io/bootstrapping': 'rbac-defaults',
      'rbac.authorization.orch.io/aggregate-to-edit': 'true',
    });
    expect(view.metadata.annotations).toEqual({ 'rbac.authorization.orch.io/autoupdate': 'true' });
    expect(view.aggregationRule?.clusterRoleSelectors).toEqual([
      { matchLabels: { 'rbac.authorization.orch.io/aggregate-to-view': 'true' } },
    ]);
    expect(role(orch, 'system:basic-user').rules?.[0]?.apiGroups).toEqual(['authorization.orch.io']);
    expect(role(orch, 'system:certificates.orch.io:apiserver-client-approver').rules).toEqual([
      {
        verbs: ['approve'],
        apiGroups: ['certificates.orch.io'],
        resources: ['signers'],
        resourceNames: ['orch.io/apiserver-client'],
      },
    ]);
    expect(orch.roles.map((r) => r.namespace)).toEqual([
      'orch-public',
      ...Array.from({ length: 6 }, () => 'orch-system'),
    ]);
    // Event rules name both event groups, sorted as the real builder sorts them.
    expect(role(orch, 'system:node-problem-detector').rules?.[2]?.apiGroups).toEqual(['', 'events.orch.io']);
  });
});
