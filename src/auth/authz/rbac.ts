/**
 * The RBAC authorizer: Allow when some rule reachable through a binding
 * that names the user allows the request (reason `RBAC: allowed by
 * ClusterRoleBinding "x" of ClusterRole "y" to User "z"`), otherwise
 * NoOpinion — with reason `RBAC: <errors>` only when a referenced role was
 * missing (the real server appends the reason to a 403 only then), and, as
 * the real RBAC authorizer returns no error, never an evaluation error: an
 * access review shows the missing role in `status.reason` alone. There are no wildcard subjects: anonymous requests
 * are allowed only through bindings naming `system:anonymous` or
 * `system:unauthenticated` (or a rule bound to `system:unauthenticated`-
 * holding groups), exactly as the real RBAC.
 *
 * Decisions are remembered per (user name, groups, request attributes) while
 * the RBAC objects stay as they are: `generation` (when given) changes with
 * every add, update and delete of a Role, ClusterRole or binding, and a
 * changed generation drops every remembered decision, so a decision is
 * never older than the listers it was read from and an RBAC change takes
 * effect on the first request that reads the changed listers. The real
 * server walks the rules on every request; here one Node thread serves
 * every client, so repeated identical checks (a controller's or a client's
 * steady traffic) are answered from the map.
 */

import type { UserInfo } from '../../api/authn';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from '../authorizer';
import { aggregate, describeBinding } from './objects';
import type { RuleResolver } from './resolver';
import { ruleAllows } from './rules';

/** Decisions kept at most; past it the map starts over (a bound, not an eviction policy). */
const maxDecisions = 4096;

/** Everything an RBAC decision reads of the request: who (name and groups only: subjects match nothing else) and what. */
function decisionKey(a: AuthorizationAttributes): string {
  return [
    a.user.username,
    a.user.groups.join('\u0002'),
    a.verb,
    a.resourceRequest ? 'r' : 'n',
    a.apiGroup,
    a.resource,
    a.subresource,
    a.namespace,
    a.name,
    a.path,
  ].join('\u0001');
}

export class RbacAuthorizer implements Authorizer {
  private readonly decisions = new Map<string, AuthorizationResult>();
  private decisionsAt: number | undefined;
  /** The same decisions by a frozen attributes object handed in again (dropped with `decisions`). */
  private byAttributes = new WeakMap<AuthorizationAttributes, AuthorizationResult>();

  /** `generation`: changes whenever any RBAC object changes; absent, nothing is remembered. */
  constructor(
    readonly resolver: RuleResolver,
    private readonly generation?: () => number,
  ) {}

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return Promise.resolve(this.authorizeSync(a));
  }

  authorizeSync(a: AuthorizationAttributes): AuthorizationResult {
    if (this.generation === undefined) return this.evaluate(a);
    const generation = this.generation();
    if (generation !== this.decisionsAt || this.decisions.size >= maxDecisions) {
      this.decisions.clear();
      this.byAttributes = new WeakMap();
      this.decisionsAt = generation;
    }
    // The same attributes object (the request filter's, per user and request: see `attributesOf`) is found
    // without spelling out its key.
    const same = this.byAttributes.get(a);
    if (same !== undefined) return { ...same };
    const key = decisionKey(a);
    let result = this.decisions.get(key);
    if (result === undefined) {
      result = this.evaluate(a);
      this.decisions.set(key, result);
    }
    if (Object.isFrozen(a)) this.byAttributes.set(a, result);
    return { ...result };
  }

  private evaluate(a: AuthorizationAttributes): AuthorizationResult {
    let allowedBy: string | undefined;
    const errors: string[] = [];
    this.resolver.visitRulesFor(a.user, a.namespace, (source, rule, error) => {
      if (source !== undefined && rule !== undefined && ruleAllows(a, rule)) {
        allowedBy = describeBinding(source.binding, source.subject);
        return false;
      }
      if (error !== undefined) errors.push(error);
      return true;
    });
    if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}` };
    if (errors.length === 0) return { decision: 'NoOpinion', reason: '' };
    return { decision: 'NoOpinion', reason: `RBAC: ${aggregate(errors)}` };
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<UserRules> {
    const { errors: _errors, ...rules } = this.rulesForSync(user, namespace);
    return Promise.resolve(rules);
  }

  /** Rules with resources become resource rules, rules with URLs non-resource rules (a rule with both, both). */
  rulesForSync(user: UserInfo, namespace: string): UserRules & { errors: string[] } {
    const { rules, errors } = this.resolver.rulesFor(user, namespace);
    const out: UserRules & { errors: string[] } = {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
      errors,
    };
    for (const r of rules) {
      if ((r.resources ?? []).length > 0)
        out.resourceRules.push({
          verbs: r.verbs,
          apiGroups: r.apiGroups ?? [],
          resources: r.resources ?? [],
          ...(r.resourceNames !== undefined ? { resourceNames: r.resourceNames } : {}),
        });
      if ((r.nonResourceURLs ?? []).length > 0)
        out.nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    if (errors.length > 0) out.evaluationError = aggregate(errors);
    return out;
  }
}
