/**
 * The ValidatingAdmissionPolicy dispatch (matching, params, CEL validation,
 * enforcement by the bindings' actions): loaded by the plugin once a policy
 * exists to evaluate, never on the path to the worker's first response
 * (decision 0070, round 3). Until then the plugin only lists the policies,
 * as the dispatch would first.
 */

export { dispatchPolicies } from './dispatch';
