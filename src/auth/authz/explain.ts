/**
 * Why RBAC refused a request, for learners (`X-Sandbox-Explain`): every
 * binding that could have applied — each ClusterRoleBinding, each
 * RoleBinding of the request's namespace, and the user's RoleBindings of
 * other namespaces — with how its subjects matched or why not, whether its
 * role exists, the rule that came closest and what that rule lacks; and a
 * Role (a ClusterRole for cluster-scoped and non-resource requests) with a
 * binding that would allow exactly this request.
 */

import type { UserInfo } from '../../api/authn';
import type { KubeObject } from '../../api/meta';
import { goQuote } from '../../machinery/go-format';
import type { NamingProfile } from '../../machinery/naming';
import type { AuthorizationAttributes, ResourceRule } from '../authorizer';
import type { AuthorizationExplanation, ConsideredBinding } from '../../api/explain';
import {
  type Binding,
  matchingSubject,
  parseServiceAccountUsername,
  rbacGroup,
  subjectAppliesTo,
} from './objects';
import type { RuleResolver } from './resolver';
import {
  apiGroupMatches,
  combinedResource,
  nonResourceURLMatches,
  type PolicyRule,
  resourceMatches,
  resourceNameMatches,
  verbMatches,
} from './rules';

/** What a rule lacks to allow the request: `verb`, `apiGroup`, `resource`, `resourceName`, `nonResourceURL`. */
export function missingFor(a: AuthorizationAttributes, rule: PolicyRule): string[] {
  const missing: string[] = [];
  if (!verbMatches(rule, a.verb)) missing.push('verb');
  if (!a.resourceRequest) {
    if (!nonResourceURLMatches(rule, a.path)) missing.push('nonResourceURL');
    return missing;
  }
  if (!apiGroupMatches(rule, a.apiGroup)) missing.push('apiGroup');
  if (!resourceMatches(rule, combinedResource(a), a.subresource)) missing.push('resource');
  if (!resourceNameMatches(rule, a.name)) missing.push('resourceName');
  return missing;
}

function closest(
  a: AuthorizationAttributes,
  rules: PolicyRule[],
): { rule: PolicyRule; missing: string[] } | undefined {
  let best: { rule: PolicyRule; missing: string[] } | undefined;
  for (const rule of rules) {
    const missing = missingFor(a, rule);
    if (best === undefined || missing.length < best.missing.length) best = { rule, missing };
  }
  return best;
}

function asResourceRule(r: PolicyRule): ResourceRule {
  return {
    verbs: r.verbs,
    apiGroups: r.apiGroups ?? [],
    resources: r.resources ?? r.nonResourceURLs ?? [],
    ...(r.resourceNames !== undefined ? { resourceNames: r.resourceNames } : {}),
  };
}

function subjectMatch(user: UserInfo, binding: Binding): string {
  for (const s of binding.subjects) {
    if (!subjectAppliesTo(user, s, binding.namespace)) continue;
    if (s.kind === 'Group') return `group ${s.name}`;
    return s.kind === 'ServiceAccount' ? 'serviceaccount' : 'user';
  }
  const names = binding.subjects.map((s) =>
    s.kind === 'ServiceAccount'
      ? `ServiceAccount ${goQuote(`${s.namespace ?? binding.namespace}/${s.name}`)}`
      : `${s.kind} ${goQuote(s.name)}`,
  );
  return names.length === 0
    ? 'no match: the binding has no subjects'
    : `no match: subjects are ${names.join(', ')}; the user is ${goQuote(user.username)} in groups ${user.groups.map(goQuote).join(', ') || '(none)'}`;
}

function consider(
  resolver: RuleResolver,
  a: AuthorizationAttributes,
  binding: Binding,
  otherNamespace: boolean,
): ConsideredBinding {
  const resolved = resolver.roleReferenceRules(binding.roleRef, binding.namespace);
  const roleKind = binding.roleRef.kind === 'Role' ? 'Role' : 'ClusterRole';
  const out: ConsideredBinding = {
    binding: {
      kind: binding.kind,
      name: binding.name,
      ...(binding.kind === 'RoleBinding' ? { namespace: binding.namespace } : {}),
    },
    role: { kind: roleKind, name: binding.roleRef.name, found: !('error' in resolved) },
    subjectMatch: subjectMatch(a.user, binding),
  };
  if ('error' in resolved) return out;
  const best = closest(a, resolved.rules);
  if (best !== undefined) {
    out.closestRule = asResourceRule(best.rule);
    out.missing = otherNamespace ? ['namespace', ...best.missing] : best.missing;
  }
  return out;
}

/** A DNS-label-safe piece of a name. */
function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '') || 'x'
  );
}

/** A Role (or ClusterRole) and a binding that grant exactly this request to the user. */
export function suggestGrant(
  profile: NamingProfile,
  a: AuthorizationAttributes,
): { role: KubeObject; binding: KubeObject } {
  const group = rbacGroup(profile);
  const sa = parseServiceAccountUsername(a.user.username);
  const who = sa?.name ?? a.user.username;
  const what = a.resourceRequest ? combinedResource(a) : a.path;
  const name = slug(`allow-${who}-${a.verb}-${what}`).slice(0, 253);
  const cluster = !a.resourceRequest || a.namespace === '';
  const rule: Record<string, string[]> = a.resourceRequest
    ? {
        apiGroups: [a.apiGroup],
        resources: [combinedResource(a)],
        ...(a.name !== '' ? { resourceNames: [a.name] } : {}),
        verbs: [a.verb],
      }
    : { nonResourceURLs: [a.path], verbs: [a.verb] };
  const meta = cluster ? { name } : { name, namespace: a.namespace };
  const subject =
    sa !== undefined
      ? { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }
      : { kind: 'User', apiGroup: group, name: a.user.username };
  return {
    role: {
      apiVersion: `${group}/v1`,
      kind: cluster ? 'ClusterRole' : 'Role',
      metadata: { ...meta },
      rules: [rule],
    },
    binding: {
      apiVersion: `${group}/v1`,
      kind: cluster ? 'ClusterRoleBinding' : 'RoleBinding',
      metadata: { ...meta },
      roleRef: { apiGroup: group, kind: cluster ? 'ClusterRole' : 'Role', name },
      subjects: [subject],
    },
  };
}

/** The RBAC part of an explanation; `decisions` are the authorizers' decisions in mode order. */
export function explainRbac(
  resolver: RuleResolver,
  profile: NamingProfile,
  a: AuthorizationAttributes,
  decisions: AuthorizationExplanation['decisions'],
): AuthorizationExplanation {
  const considered: ConsideredBinding[] = [];
  for (const b of resolver.allBindings('', 'ClusterRoleBinding'))
    considered.push(consider(resolver, a, b, false));
  if (a.namespace !== '')
    for (const b of resolver.allBindings(a.namespace, 'RoleBinding'))
      considered.push(consider(resolver, a, b, false));
  // The user's RoleBindings elsewhere: the usual mistake is a grant in the wrong namespace.
  for (const b of resolver.allRoleBindings())
    if (b.namespace !== a.namespace && matchingSubject(a.user, b) !== undefined)
      considered.push(consider(resolver, a, b, true));
  const { user, ...attributes } = a;
  return {
    kind: 'authorization',
    user,
    attributes,
    decisions,
    considered,
    suggestion: suggestGrant(profile, a),
  };
}
