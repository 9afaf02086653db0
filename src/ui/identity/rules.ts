/**
 * Reading a SelfSubjectRulesReview the way RBAC does: which of the
 * returned rules grant a verb on a resource (`*` matches any verb, group or
 * resource; a rule with `resourceNames` grants only on those objects, and
 * never `list`, `watch`, `create` or `deletecollection`, which name no
 * object). The matrix of the identity view is built from these, one cell per
 * verb and resource, each cell keeping the rules that grant it so it can say
 * why. Pure functions, no React, so a unit test can check them.
 */

/** A resource rule as SelfSubjectRulesReview returns it. */
export interface ReviewedRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface RulesReviewStatus {
  resourceRules?: ReviewedRule[];
  nonResourceRules?: { verbs: string[]; nonResourceURLs?: string[] }[];
  incomplete?: boolean;
  evaluationError?: string;
}

/** The verbs the matrix shows, in kubectl's order. */
export const matrixVerbs = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
] as const;

export type CellState = 'allowed' | 'some-names' | 'denied' | 'not-served';

export interface Cell {
  state: CellState;
  /** Indexes into the review's resourceRules of the rules that grant it (all of them, or those naming objects). */
  rules: number[];
}

/** Verbs that act on the whole collection, which a rule restricted to resourceNames cannot grant. */
const collectionVerbs = new Set(['list', 'watch', 'create', 'deletecollection']);

export function ruleGrants(rule: ReviewedRule, verb: string, group: string, resource: string): boolean {
  return (
    (rule.verbs.includes('*') || rule.verbs.includes(verb)) &&
    ((rule.apiGroups ?? []).includes('*') || (rule.apiGroups ?? []).includes(group)) &&
    ((rule.resources ?? []).includes('*') || (rule.resources ?? []).includes(resource))
  );
}

/** The cell for `verb` on `group`/`resource`; `served` are the verbs discovery lists for the resource. */
export function cellFor(
  rules: readonly ReviewedRule[],
  verb: string,
  group: string,
  resource: string,
  served: readonly string[],
): Cell {
  if (!served.includes(verb)) return { state: 'not-served', rules: [] };
  const whole: number[] = [];
  const named: number[] = [];
  rules.forEach((rule, i) => {
    if (!ruleGrants(rule, verb, group, resource)) return;
    if ((rule.resourceNames ?? []).length === 0) whole.push(i);
    else if (!collectionVerbs.has(verb)) named.push(i);
  });
  if (whole.length > 0) return { state: 'allowed', rules: whole };
  if (named.length > 0) return { state: 'some-names', rules: named };
  return { state: 'denied', rules: [] };
}

/** A rule in one line, as `kubectl describe role` would list it. */
export function ruleText(rule: ReviewedRule): string {
  const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? '""' : g)).join(',');
  const names =
    (rule.resourceNames ?? []).length > 0 ? ` names [${(rule.resourceNames ?? []).join(' ')}]` : '';
  return `verbs [${rule.verbs.join(' ')}] on ${(rule.resources ?? []).join(',') || '(none)'} in groups [${groups}]${names}`;
}
