/**
 * Authorization: RBAC over the stored roles and bindings, the Node
 * authorizer for node agents, and their union as `--authorization-mode`
 * composes them; the 403 texts, explanations, escalation checks, and the
 * informer indexes the composition root registers.
 */

export {
  createAuthorizer,
  type AuthorizationMode,
  type AuthorizerDeps,
  type RbacRuleResolver,
  type ServerAuthorizer,
} from './union';
export { forbiddenError, forbiddenMessage } from './forbidden';
export { explainRbac, suggestGrant, missingFor } from './explain';
export { escalationError, compactString, fullAuthority } from './escalation';
export { covers } from '../policy/rules';
export {
  authorizerIndexes,
  POD_NODE_INDEX,
  PV_CLAIM_INDEX,
  SUBJECT_INDEX,
  podNodeIndex,
  pvClaimIndex,
  subjectIndex,
} from './indexes';
export { nodeIdentity } from './node';
export { rbacGroup, readBinding, type Binding, type RoleRef, type Subject } from './objects';
export { RuleResolver, type RbacListers, type ResolvedRules, type RoleReferenceResult } from './resolver';
export { readRules, ruleAllows, rulesAllow, type PolicyRule } from './rules';
