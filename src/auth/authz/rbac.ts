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
 */

import type { UserInfo } from '../../api/authn';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, UserRules } from '../authorizer';
import { aggregate, describeBinding } from './objects';
import type { RuleResolver } from './resolver';
import { ruleAllows } from './rules';

export class RbacAuthorizer implements Authorizer {
  constructor(readonly resolver: RuleResolver) {}

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return Promise.resolve(this.authorizeSync(a));
  }

  authorizeSync(a: AuthorizationAttributes): AuthorizationResult {
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
