/**
 * The post-start hooks' writers, which no first answer waits for (they run
 * beside or after it, decision 0074): the default RBAC policy with its
 * reconciliation (`auth/policy/`, some hundred objects as data), and the
 * start-up objects (system PriorityClasses, the API Priority and Fairness
 * configuration, the local APIServices). Loaded by the server's
 * `bootstrapPostStart` before its writes, so the worker's first response
 * does not carry them (decision 0070, round 3). The Node authorizer's
 * `system:node` rules stay on the path (`auth/policy/node-role.ts`).
 */

export { reconcileBootstrapPolicy } from './bootstrap-policy';
export { ensureStartupObjects } from './startup-objects';
