/**
 * The default ClusterRoles of the v1.27 bootstrap policy (upstream
 * `ClusterRoles()`, golden file `testdata/cluster-roles.yaml` with the
 * default feature gates): the user-facing roles (cluster-admin and the
 * aggregated admin/edit/view with their `system:aggregate-to-*` parts) and
 * the roles of system components. Listed in the golden file's order (by
 * name); each role's rules are in the real order. Group names, signer names
 * and label/annotation keys come from the naming profile.
 */

import { READ, READ_WRITE, WRITE, clusterRole, eventsRule, rule, urls, type PolicyNames } from './names';
import { systemNodeRules } from './node-role';
import type { ClusterRole } from './types';

export function defaultClusterRoles(n: PolicyNames): ClusterRole[] {
  const { g } = n;
  const core = [g.core];
  const approver = (name: string, signer: string): ClusterRole =>
    clusterRole(n, name, [rule('approve', [g.certificates], 'signers', [signer])]);

  return [
    // The user-facing roles are filled by the aggregation controller from the roles their selectors match.
    clusterRole(n, 'admin', null, { aggregateFrom: 'admin' }),
    clusterRole(n, 'cluster-admin', [rule('*', ['*'], '*'), urls('*', '*')]),
    clusterRole(n, 'edit', null, { aggregateFrom: 'edit', labels: { [n.aggregateTo('admin')]: 'true' } }),
    clusterRole(
      n,
      'system:aggregate-to-admin',
      [
        rule('create', [g.authorization], 'localsubjectaccessreviews'),
        rule(READ_WRITE, [g.rbac], 'roles rolebindings'),
      ],
      { labels: { [n.aggregateTo('admin')]: 'true' } },
    ),
    clusterRole(
      n,
      'system:aggregate-to-edit',
      [
        // Reading secrets and connecting to pods can escalate, so they sit in edit, not view.
        rule(READ, core, 'pods/attach pods/proxy pods/exec pods/portforward secrets services/proxy'),
        rule('impersonate', core, 'serviceaccounts'),
        rule(WRITE, core, 'pods pods/attach pods/proxy pods/exec pods/portforward'),
        rule('create', core, 'pods/eviction'),
        rule(
          WRITE,
          core,
          'replicationcontrollers replicationcontrollers/scale serviceaccounts services services/proxy persistentvolumeclaims configmaps secrets events',
        ),
        rule('create', core, 'serviceaccounts/token'),
        rule(
          WRITE,
          [g.apps],
          'statefulsets statefulsets/scale daemonsets deployments deployments/scale deployments/rollback replicasets replicasets/scale',
        ),
        rule(WRITE, [g.autoscaling], 'horizontalpodautoscalers'),
        rule(WRITE, [g.batch], 'jobs cronjobs'),
        rule(
          WRITE,
          [g.extensions],
          'daemonsets deployments deployments/scale deployments/rollback ingresses replicasets replicasets/scale replicationcontrollers/scale networkpolicies',
        ),
        rule(WRITE, [g.policy], 'poddisruptionbudgets'),
        rule(WRITE, [g.networking], 'networkpolicies ingresses'),
        rule(READ_WRITE, [g.coordination], 'leases'),
      ],
      { labels: { [n.aggregateTo('edit')]: 'true' } },
    ),
    clusterRole(
      n,
      'system:aggregate-to-view',
      [
        rule(
          READ,
          core,
          'pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status endpoints persistentvolumeclaims persistentvolumeclaims/status configmaps',
        ),
        rule(
          READ,
          core,
          'limitranges resourcequotas bindings events pods/status resourcequotas/status namespaces/status replicationcontrollers/status pods/log',
        ),
        // Reading namespaces at namespace scope means reading this namespace: an indicator of access.
        rule(READ, core, 'namespaces'),
        rule(READ, [g.discovery], 'endpointslices'),
        rule(
          READ,
          [g.apps],
          'controllerrevisions statefulsets statefulsets/status statefulsets/scale daemonsets daemonsets/status deployments deployments/status deployments/scale replicasets replicasets/status replicasets/scale',
        ),
        rule(READ, [g.autoscaling], 'horizontalpodautoscalers horizontalpodautoscalers/status'),
        rule(READ, [g.batch], 'jobs cronjobs cronjobs/status jobs/status'),
        rule(
          READ,
          [g.extensions],
          'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status replicasets replicasets/scale replicasets/status replicationcontrollers/scale networkpolicies',
        ),
        rule(READ, [g.policy], 'poddisruptionbudgets poddisruptionbudgets/status'),
        rule(READ, [g.networking], 'networkpolicies ingresses ingresses/status'),
      ],
      { labels: { [n.aggregateTo('view')]: 'true' } },
    ),
    clusterRole(n, 'system:auth-delegator', [
      rule('create', [g.authentication], 'tokenreviews'),
      rule('create', [g.authorization], 'subjectaccessreviews'),
    ]),
    clusterRole(n, 'system:basic-user', [
      rule('create', [g.authorization], 'selfsubjectaccessreviews selfsubjectrulesreviews'),
      // SelfSubjectReview is beta and on by default in v1.27, so the rule is present.
      rule('create', [g.authentication], 'selfsubjectreviews'),
    ]),
    clusterRole(n, n.csrRole('nodeclient'), [
      rule('create', [g.certificates], 'certificatesigningrequests/nodeclient'),
    ]),
    clusterRole(n, n.csrRole('selfnodeclient'), [
      rule('create', [g.certificates], 'certificatesigningrequests/selfnodeclient'),
    ]),
    approver(n.approverRoles.apiserverClient, n.signers.apiserverClient),
    approver(n.approverRoles.apiserverClientKubelet, n.signers.apiserverClientKubelet),
    approver(n.approverRoles.kubeletServing, n.signers.kubeletServing),
    approver(n.approverRoles.legacyUnknown, n.signers.legacyUnknown),
    clusterRole(n, 'system:discovery', [
      urls('get', '/livez /readyz /healthz /version /version/ /openapi /openapi/* /api /api/* /apis /apis/*'),
    ]),
    clusterRole(n, 'system:heapster', [
      rule(READ, core, 'events pods nodes namespaces'),
      rule(READ, [g.extensions], 'deployments'),
    ]),
    clusterRole(n, 'system:kube-aggregator', [rule(READ, core, 'services endpoints')]),
    clusterRole(n, 'system:kube-controller-manager', [
      eventsRule(n),
      // Leader election; the named lease is the controller manager's own.
      rule('create', [g.coordination], 'leases'),
      rule('get update', [g.coordination], 'leases', 'kube-controller-manager'),
      rule('create', core, 'secrets serviceaccounts'),
      rule('delete', core, 'secrets'),
      rule('get', core, 'namespaces configmaps secrets serviceaccounts'),
      rule('update', core, 'secrets serviceaccounts'),
      // Delegated authentication and authorization of its own endpoints.
      rule('create', [g.authentication], 'tokenreviews'),
      rule('create', [g.authorization], 'subjectaccessreviews'),
      // Shared informers for every controller.
      rule('list watch', ['*'], '*'),
      rule('create', core, 'serviceaccounts/token'),
    ]),
    clusterRole(n, 'system:kube-dns', [rule('list watch', core, 'endpoints services')]),
    clusterRole(n, 'system:kube-scheduler', [
      eventsRule(n),
      rule('create', [g.coordination], 'leases'),
      rule('get update', [g.coordination], 'leases', 'kube-scheduler'),
      rule(READ, core, 'nodes'),
      rule('get list watch delete', core, 'pods'),
      rule('create', core, 'pods/binding bindings'),
      rule('patch update', core, 'pods/status'),
      rule(READ, core, 'services replicationcontrollers'),
      rule(READ, [g.apps, g.extensions], 'replicasets'),
      rule(READ, [g.apps], 'statefulsets'),
      rule(READ, [g.policy], 'poddisruptionbudgets'),
      rule(READ, core, 'persistentvolumeclaims persistentvolumes'),
      rule('create', [g.authentication], 'tokenreviews'),
      rule('create', [g.authorization], 'subjectaccessreviews'),
      rule(READ, [g.storage], 'csinodes'),
      rule(READ, core, 'namespaces'),
      rule(READ, [g.storage], 'csidrivers'),
      rule(READ, [g.storage], 'csistoragecapacities'),
    ]),
    clusterRole(n, 'system:kubelet-api-admin', [
      rule(READ, core, 'nodes'),
      rule('proxy', core, 'nodes'),
      rule('*', core, 'nodes/proxy nodes/metrics nodes/stats nodes/log'),
    ]),
    clusterRole(n, 'system:monitoring', [
      urls('get', '/metrics /metrics/slis /livez /readyz /healthz /livez/* /readyz/* /healthz/*'),
    ]),
    clusterRole(n, 'system:node', systemNodeRules(n)),
    clusterRole(n, 'system:node-bootstrapper', [
      rule('create get list watch', [g.certificates], 'certificatesigningrequests'),
    ]),
    clusterRole(n, 'system:node-problem-detector', [
      rule('get', core, 'nodes'),
      rule('patch', core, 'nodes/status'),
      eventsRule(n),
    ]),
    clusterRole(n, 'system:node-proxier', [
      rule('list watch', core, 'services endpoints'),
      rule(READ, core, 'nodes'),
      eventsRule(n),
      rule('list watch', [g.discovery], 'endpointslices'),
    ]),
    clusterRole(n, 'system:persistent-volume-provisioner', [
      rule('get list watch create delete', core, 'persistentvolumes'),
      // update is needed to set the volume name on the claim.
      rule('get list watch update', core, 'persistentvolumeclaims'),
      rule(READ, [g.storage], 'storageclasses'),
      // Watching events finds out about provisioning events of claims.
      rule('watch', core, 'events'),
      eventsRule(n),
    ]),
    clusterRole(n, 'system:public-info-viewer', [urls('get', '/livez /readyz /healthz /version /version/')]),
    clusterRole(n, 'system:service-account-issuer-discovery', [
      urls('get', '/.well-known/openid-configuration /openid/v1/jwks'),
    ]),
    clusterRole(n, 'system:volume-scheduler', [
      rule('get list watch update patch', core, 'persistentvolumes'),
      rule(READ, [g.storage], 'storageclasses'),
      rule('get list watch update patch', core, 'persistentvolumeclaims'),
    ]),
    clusterRole(n, 'view', null, { aggregateFrom: 'view', labels: { [n.aggregateTo('edit')]: 'true' } }),
  ];
}
