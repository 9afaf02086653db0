/**
 * The controllers the server runs beside itself (the apiextensions controllers, the controller manager's, the
 * leader election between replicas) and the simulated cluster: loaded once the server answers, never on the path
 * to its first response (decision 0070). They reach the server only through the clients it hands them. In the
 * browser this module is its own script; the modules it shares with the worker script (the client and its
 * errors, the clock, machinery) are the worker's own instances, not copies (see scripts/lazy-module-graph.ts).
 */

export { namespaceController } from '../controllers/namespace-controller';
export { garbageCollector } from '../controllers/garbage-collector';
export { clusterRoleAggregationController } from '../controllers/clusterrole-aggregation';
export { crdNamingController } from '../controllers/crd-naming';
export { crdEstablishingController } from '../controllers/crd-establishing';
export { crdFinalizer } from '../controllers/crd-finalizer';
export { pvcProtectionController, pvProtectionController } from '../controllers/storage-protection';
export { csrApprovingController } from '../controllers/csr-approving';
export { csrSigningController } from '../controllers/csr-signing';
export { csrCleaner } from '../controllers/csr-cleaner';
export { bootstrapSigner } from '../controllers/bootstrap-signer';
export { tokenCleaner } from '../controllers/token-cleaner';
export { serviceAccountController } from '../controllers/service-account';
export { rootCAPublisher } from '../controllers/root-ca-publisher';
export { serviceAccountTokensController } from '../controllers/service-account-tokens';
export { LeaderElector } from '../controllers/leader-election';
export { apfConfigurationController } from '../controllers/apf-config';
export { crdAutoregisterController } from '../controllers/crd-autoregister';
export { workloadControllers } from '../controllers/workloads';
export { Simulation } from '../simulation/index';
