/**
 * The server's authorizer from `--authorization-mode`: the privileged-group
 * authorizer first (members of `system:masters` may do everything, as the
 * real server allows before any mode), then the modes in order; the first
 * Allow or Deny decides, otherwise NoOpinion with every reason given joined
 * by newlines (the 403 appends it). Rules for SelfSubjectRulesReview are
 * the union of each mode's, `incomplete` if any mode's are, errors
 * aggregated. Also offers the RBAC rule resolution the RBAC storages need
 * for escalation checks, worded as the registry's resolver words errors.
 */

import type { UserInfo } from '../../api/authn';
import type { NamingProfile } from '../../machinery/naming';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from '../authorizer';
import type { AuthorizationExplanation } from '../../api/explain';
import { explainRbac } from './explain';
import { NodeAuthorizer } from './node';
import type { NodeGraphListers } from './node-graph';
import { aggregate } from './objects';
import { RbacAuthorizer } from './rbac';
import { type RbacListers, type ResolvedRules, type RoleReferenceResult, RuleResolver } from './resolver';
import type { PolicyRule } from './rules';
import type { RoleRef } from './objects';

export type AuthorizationMode = 'AlwaysAllow' | 'AlwaysDeny' | 'Node' | 'RBAC';

export interface AuthorizerDeps {
  profile: NamingProfile;
  rbac: RbacListers;
  /** Changes whenever a Role, ClusterRole or binding changes: lets RBAC remember decisions (see rbac.ts). */
  rbacGeneration?: () => number;
  /** Needed for mode `Node`. */
  node?: NodeGraphListers & { nodeRules: readonly PolicyRule[] };
  /** Groups allowed everything before any mode; default `system:masters`. */
  privilegedGroups?: readonly string[];
}

/** What the RBAC storages ask for escalation checks (registry wording: `clusterroles.<group> "x" not found`). */
export interface RbacRuleResolver {
  /** The RBAC rules the user holds in `namespace` ('' = cluster-wide only) and the errors met. */
  rbacRulesFor(user: UserInfo, namespace: string): ResolvedRules;
  /** The rules a binding's roleRef grants. */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): RoleReferenceResult;
}

export interface ServerAuthorizer extends Authorizer, RbacRuleResolver {
  /** `authorize` without the promise: every mode here decides from the listers at hand (the request path). */
  authorizeSync(a: AuthorizationAttributes): AuthorizationResult;
  /** Each step's decision, for explanations and tests. */
  decisions(a: AuthorizationAttributes): { authorizer: string; decision: string; reason: string }[];
  /** Why the request is refused (or allowed): decisions, RBAC bindings considered, a suggested grant. */
  explain(a: AuthorizationAttributes): AuthorizationExplanation;
}

interface Step {
  name: string;
  authorize(a: AuthorizationAttributes): AuthorizationResult;
  /** Undefined: the step does not enumerate rules (the privileged-group step). */
  rules?(user: UserInfo, namespace: string): UserRules & { errors: string[] };
}

function privilegedStep(groups: readonly string[]): Step {
  return {
    name: 'PrivilegedGroups',
    authorize: (a) =>
      a.user.groups.some((g) => groups.includes(g))
        ? { decision: 'Allow', reason: '' }
        : { decision: 'NoOpinion', reason: '' },
  };
}

const noErrors = { errors: [] as string[] };

export function createAuthorizer(
  modes: readonly AuthorizationMode[],
  deps: AuthorizerDeps,
): ServerAuthorizer {
  if (modes.length === 0) throw new Error('at least one authorization mode must be passed');
  const resolver = new RuleResolver(deps.rbac, deps.profile, 'lister');
  const registryResolver = new RuleResolver(deps.rbac, deps.profile, 'storage');
  const rbac = new RbacAuthorizer(resolver, deps.rbacGeneration);
  const steps: Step[] = [privilegedStep(deps.privilegedGroups ?? ['system:masters'])];
  for (const mode of modes) {
    switch (mode) {
      case 'AlwaysAllow':
        steps.push({
          name: mode,
          authorize: () => ({ decision: 'Allow', reason: '' }),
          rules: () => ({
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
            ...noErrors,
          }),
        });
        break;
      case 'AlwaysDeny':
        steps.push({
          name: mode,
          authorize: () => ({ decision: 'NoOpinion', reason: 'Everything is forbidden.' }),
          rules: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false, ...noErrors }),
        });
        break;
      case 'Node': {
        if (deps.node === undefined)
          throw new Error('authorization mode Node needs the node listers and rules');
        const node = new NodeAuthorizer({ ...deps.node, profile: deps.profile });
        steps.push({
          name: mode,
          authorize: (a) => node.authorizeSync(a),
          rules: (user) => {
            const isNode = node.nodeRulesIncomplete(user);
            return {
              resourceRules: [],
              nonResourceRules: [],
              incomplete: isNode,
              errors: isNode ? ['node authorizer does not support user rule resolution'] : [],
            };
          },
        });
        break;
      }
      case 'RBAC':
        steps.push({
          name: mode,
          authorize: (a) => rbac.authorizeSync(a),
          rules: (user, namespace) => rbac.rulesForSync(user, namespace),
        });
        break;
    }
  }

  type Trail = ReturnType<ServerAuthorizer['decisions']>;

  /** The first Allow or Deny, else NoOpinion with the reasons given; each step's decision goes to `trail` when asked. */
  function decide(a: AuthorizationAttributes, trail?: Trail): AuthorizationResult {
    let reasons: string[] | undefined;
    let evaluationError: string | undefined;
    for (const step of steps) {
      const r = step.authorize(a);
      trail?.push({ authorizer: step.name, decision: r.decision, reason: r.reason });
      if (r.decision !== 'NoOpinion') return { decision: r.decision, reason: r.reason };
      if (r.reason !== '') (reasons ??= []).push(r.reason);
      evaluationError ??= r.evaluationError;
    }
    const result: AuthorizationResult = { decision: 'NoOpinion', reason: reasons?.join('\n') ?? '' };
    if (evaluationError !== undefined) result.evaluationError = evaluationError;
    return result;
  }

  function decisions(a: AuthorizationAttributes): Trail {
    const trail: Trail = [];
    decide(a, trail);
    return trail;
  }

  return {
    authorize: (a) => Promise.resolve(decide(a)),
    authorizeSync: (a) => decide(a),
    decisions,
    rulesFor: (user, namespace) => {
      const out: UserRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const step of steps) {
        const r = step.rules?.(user, namespace);
        if (r === undefined) continue;
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        out.incomplete ||= r.incomplete;
        errors.push(...r.errors);
      }
      if (errors.length > 0) out.evaluationError = aggregate(errors);
      return Promise.resolve(out);
    },
    explain: (a) => explainRbac(resolver, deps.profile, a, decisions(a)),
    rbacRulesFor: (user, namespace) => registryResolver.rulesFor(user, namespace),
    roleReferenceRules: (ref, ns) => registryResolver.roleReferenceRules(ref, ns),
  };
}
