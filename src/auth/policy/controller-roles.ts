/**
 * The per-controller ClusterRoles of the v1.27 bootstrap policy (upstream
 * `ControllerRoles()`, golden file `testdata/controller-roles.yaml` with the
 * default feature gates): one `system:controller:<name>` role for each
 * controller of the controller manager that runs under its own service
 * account, in the golden file's order (by name), rules in the real order.
 * Feature-gated roles that are off by default in v1.27 (resource claims,
 * DynamicResourceAllocation) are not part of the default policy.
 */

import { CONTROLLER_ROLE_PREFIX, READ, clusterRole, eventsRule, rule, type PolicyNames } from './names';
import type { ClusterRole } from './types';

/** The controller names, each a service account in the system namespace bound to its role. */
export const CONTROLLER_NAMES = [
  'attachdetach-controller',
  'certificate-controller',
  'clusterrole-aggregation-controller',
  'cronjob-controller',
  'daemon-set-controller',
  'deployment-controller',
  'disruption-controller',
  'endpoint-controller',
  'endpointslice-controller',
  'endpointslicemirroring-controller',
  'ephemeral-volume-controller',
  'expand-controller',
  'generic-garbage-collector',
  'horizontal-pod-autoscaler',
  'job-controller',
  'namespace-controller',
  'node-controller',
  'persistent-volume-binder',
  'pod-garbage-collector',
  'pv-protection-controller',
  'pvc-protection-controller',
  'replicaset-controller',
  'replication-controller',
  'resourcequota-controller',
  'root-ca-cert-publisher',
  'route-controller',
  'service-account-controller',
  'service-controller',
  'statefulset-controller',
  'ttl-after-finished-controller',
  'ttl-controller',
] as const;

export type ControllerName = (typeof CONTROLLER_NAMES)[number];

export function controllerClusterRoles(n: PolicyNames): ClusterRole[] {
  const { g } = n;
  const core = [g.core];
  const appsExt = [g.apps, g.extensions];
  const events = eventsRule(n);
  const rules: Record<ControllerName, ReturnType<typeof rule>[]> = {
    'attachdetach-controller': [
      rule('list watch', core, 'persistentvolumes persistentvolumeclaims'),
      rule('get list watch', core, 'nodes'),
      rule('patch update', core, 'nodes/status'),
      rule('list watch', core, 'pods'),
      events,
      rule('get create delete list watch', [g.storage], 'volumeattachments'),
      rule(READ, [g.storage], 'csidrivers'),
      rule(READ, [g.storage], 'csinodes'),
    ],
    'certificate-controller': [
      rule('get list watch delete', [g.certificates], 'certificatesigningrequests'),
      rule(
        'update',
        [g.certificates],
        'certificatesigningrequests/status certificatesigningrequests/approval',
      ),
      // Auto-approval covers node client certificates only.
      rule('approve', [g.certificates], 'signers', [n.signers.apiserverClientKubelet]),
      rule('sign', [g.certificates], 'signers', [
        n.signers.legacyUnknown,
        n.signers.kubeletServing,
        n.signers.apiserverClientKubelet,
        n.signers.apiserverClient,
      ]),
      rule('create', [g.authorization], 'subjectaccessreviews'),
      events,
    ],
    'clusterrole-aggregation-controller': [
      // escalate lets it write rules it does not hold itself.
      rule('escalate get list watch update patch', [g.rbac], 'clusterroles'),
    ],
    'cronjob-controller': [
      rule('get list watch update', [g.batch], 'cronjobs'),
      rule('get list watch create update delete patch', [g.batch], 'jobs'),
      rule('update', [g.batch], 'cronjobs/status'),
      rule('update', [g.batch], 'cronjobs/finalizers'),
      rule('list delete', core, 'pods'),
      events,
    ],
    'daemon-set-controller': [
      rule('get list watch', appsExt, 'daemonsets'),
      rule('update', appsExt, 'daemonsets/status'),
      rule('update', appsExt, 'daemonsets/finalizers'),
      rule('list watch', core, 'nodes'),
      rule('list watch create delete patch', core, 'pods'),
      rule('create', core, 'pods/binding'),
      rule('get list watch create delete update patch', [g.apps], 'controllerrevisions'),
      events,
    ],
    'deployment-controller': [
      rule('get list watch update', appsExt, 'deployments'),
      rule('update', appsExt, 'deployments/status'),
      rule('update', appsExt, 'deployments/finalizers'),
      rule('get list watch create update patch delete', appsExt, 'replicasets'),
      // Pods are listed to check progress; update is for adopting and orphaning.
      rule('get list watch update', core, 'pods'),
      events,
    ],
    'disruption-controller': [
      rule(READ, appsExt, 'deployments'),
      rule(READ, appsExt, 'replicasets'),
      rule(READ, core, 'replicationcontrollers'),
      rule(READ, [g.policy], 'poddisruptionbudgets'),
      rule(READ, [g.apps], 'statefulsets'),
      rule('update', [g.policy], 'poddisruptionbudgets/status'),
      rule('get', ['*'], '*/scale'),
      events,
      // Pod disruption conditions (beta, on by default in v1.27).
      rule('patch', core, 'pods/status'),
    ],
    'endpoint-controller': [
      rule(READ, core, 'services pods'),
      rule('get list create update delete', core, 'endpoints'),
      rule('create', core, 'endpoints/restricted'),
      events,
    ],
    'endpointslice-controller': [
      rule(READ, core, 'services pods nodes'),
      // Owner references with blockOwnerDeletion need update on the owner's finalizers.
      rule('update', core, 'services/finalizers'),
      rule('get list create update delete', [g.discovery], 'endpointslices'),
      events,
    ],
    'endpointslicemirroring-controller': [
      rule(READ, core, 'services endpoints'),
      rule('update', core, 'services/finalizers'),
      rule('update', core, 'endpoints/finalizers'),
      rule('get list create update delete', [g.discovery], 'endpointslices'),
      events,
    ],
    'ephemeral-volume-controller': [
      rule('get list watch', core, 'pods'),
      rule('update', core, 'pods/finalizers'),
      rule('get list watch create', core, 'persistentvolumeclaims'),
      events,
    ],
    'expand-controller': [
      rule('get list watch update patch', core, 'persistentvolumes'),
      rule('update patch', core, 'persistentvolumeclaims/status'),
      rule('get list watch', core, 'persistentvolumeclaims'),
      rule('get list watch', [g.storage], 'storageclasses'),
      // Volume plugins that need endpoints and services (glusterfs) and secrets for the resize.
      rule('get', core, 'services endpoints'),
      rule('get', core, 'secrets'),
      events,
    ],
    'generic-garbage-collector': [rule('get list watch patch update delete', ['*'], '*'), events],
    'horizontal-pod-autoscaler': [
      rule('get list watch', [g.autoscaling], 'horizontalpodautoscalers'),
      rule('update', [g.autoscaling], 'horizontalpodautoscalers/status'),
      rule('get update', ['*'], '*/scale'),
      rule('list', core, 'pods'),
      // Resource metrics, then custom and external metrics, each from its aggregated API.
      rule('list', [g.metrics], 'pods'),
      rule('get list', [g.customMetrics], '*'),
      rule('get list', [g.externalMetrics], '*'),
      events,
    ],
    'job-controller': [
      rule('get list watch update patch', [g.batch], 'jobs'),
      rule('update', [g.batch], 'jobs/status'),
      rule('update', [g.batch], 'jobs/finalizers'),
      rule('list watch create delete patch', core, 'pods'),
      events,
    ],
    'namespace-controller': [
      rule('get list watch delete', core, 'namespaces'),
      rule('update', core, 'namespaces/finalize namespaces/status'),
      rule('get list delete deletecollection', ['*'], '*'),
    ],
    'node-controller': [
      rule('get list update delete patch', core, 'nodes'),
      rule('patch update', core, 'nodes/status'),
      // Marking pods not ready when their node is.
      rule('patch update', core, 'pods/status'),
      rule('list delete', core, 'pods'),
      // ClusterCIDR (networking v1alpha1, multi-CIDR allocator) is in the default v1.27 role.
      rule('get list create update', [g.networking], 'clustercidrs'),
      events,
      // Pod disruption conditions (beta, on by default in v1.27).
      rule('get', core, 'pods'),
    ],
    'persistent-volume-binder': [
      rule('get list watch update create delete', core, 'persistentvolumes'),
      rule('update', core, 'persistentvolumes/status'),
      rule('get list watch update', core, 'persistentvolumeclaims'),
      rule('update', core, 'persistentvolumeclaims/status'),
      rule('list watch get create delete', core, 'pods'),
      // Dynamic provisioning.
      rule('get list watch', [g.storage], 'storageclasses'),
      // Volume plugins that need endpoints and services (glusterfs).
      rule('get create update delete', core, 'endpoints'),
      rule('get create delete', core, 'services'),
      rule('get', core, 'secrets'),
      rule('get list', core, 'nodes'),
      // Provisioning events of claims.
      rule('watch', core, 'events'),
      events,
    ],
    'pod-garbage-collector': [
      rule('list watch delete', core, 'pods'),
      rule('get list', core, 'nodes'),
      rule('patch', core, 'pods/status'),
    ],
    'pv-protection-controller': [rule('get list watch update', core, 'persistentvolumes'), events],
    'pvc-protection-controller': [
      rule('get list watch update', core, 'persistentvolumeclaims'),
      rule('list watch get', core, 'pods'),
      events,
    ],
    'replicaset-controller': [
      rule('get list watch update', appsExt, 'replicasets'),
      rule('update', appsExt, 'replicasets/status'),
      rule('update', appsExt, 'replicasets/finalizers'),
      rule('list watch patch create delete', core, 'pods'),
      events,
    ],
    'replication-controller': [
      // The replication controller is the replica set controller run over a different type.
      rule('get list watch update', core, 'replicationcontrollers'),
      rule('update', core, 'replicationcontrollers/status'),
      rule('update', core, 'replicationcontrollers/finalizers'),
      rule('list watch patch create delete', core, 'pods'),
      events,
    ],
    'resourcequota-controller': [
      // Quota can count any resource.
      rule('list watch', ['*'], '*'),
      rule('update', core, 'resourcequotas/status'),
      events,
    ],
    'root-ca-cert-publisher': [rule('create update', core, 'configmaps'), events],
    'route-controller': [rule('list watch', core, 'nodes'), rule('patch', core, 'nodes/status'), events],
    'service-account-controller': [rule('create', core, 'serviceaccounts'), events],
    'service-controller': [
      rule(READ, core, 'services'),
      rule('patch update', core, 'services/status'),
      rule('list watch', core, 'nodes'),
      events,
    ],
    'statefulset-controller': [
      rule('list watch', core, 'pods'),
      rule(READ, [g.apps], 'statefulsets'),
      rule('update', [g.apps], 'statefulsets/status'),
      rule('update', [g.apps], 'statefulsets/finalizers'),
      rule('get create delete update patch', core, 'pods'),
      rule('get create delete update patch list watch', [g.apps], 'controllerrevisions'),
      rule('get create', core, 'persistentvolumeclaims'),
      events,
      // PVC retention policy (StatefulSetAutoDeletePVC, beta and on by default in v1.27).
      rule('update delete', core, 'persistentvolumeclaims'),
    ],
    'ttl-after-finished-controller': [rule('get list watch delete', [g.batch], 'jobs'), events],
    'ttl-controller': [rule('update patch list watch', core, 'nodes'), events],
  };
  return CONTROLLER_NAMES.map((name) => clusterRole(n, `${CONTROLLER_ROLE_PREFIX}${name}`, rules[name]));
}
