/**
 * The audit policy (`audit.<suffix>/v1` kind `Policy`, `--audit-policy-file`):
 * an ordered list of rules, the first rule matching a request giving its
 * level (None, Metadata, Request, RequestResponse) and the stages left out,
 * as the real policy evaluator decides. Without a policy nothing is audited.
 */

import { yamlLibrary, type YamlParse } from '../machinery/decode/yaml-library';
import type { NamingProfile } from '../machinery/naming';
import type { AuditLevel } from '../registry/rest/scope';

export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: AuditLevel;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: AuditStage[];
  omitManagedFields?: boolean;
}

export interface AuditPolicy {
  rules: PolicyRule[];
  omitStages: AuditStage[];
  omitManagedFields: boolean;
}

/**
 * What a rule is matched against besides the user: the request as authorization saw it (the request info's
 * attributes, made once per distinct request, `http/request-info.ts`).
 */
export interface AuditAttributes {
  verb: string;
  resourceRequest: boolean;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

export interface PolicyDecision {
  level: AuditLevel;
  omitStages: readonly AuditStage[];
  omitManagedFields: boolean;
}

export class AuditPolicyError extends Error {}

const levels: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const stages: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

function strings(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new AuditPolicyError(`${field}: must be a list of strings`);
  return v as string[];
}

function stageList(v: unknown, field: string): AuditStage[] {
  const list = strings(v, field) ?? [];
  for (const s of list)
    if (!stages.includes(s as AuditStage)) throw new AuditPolicyError(`${field}: Unsupported value: "${s}"`);
  return list as AuditStage[];
}

/**
 * Parses and validates a policy file (YAML or JSON), with the real server's field paths in errors.
 * The YAML library is loaded on first use: the caller awaits `yamlLibrary.load()` first, unless it
 * brings its own parser (the Node host's flags are read synchronously, with the package imported).
 */
export function parseAuditPolicy(
  profile: NamingProfile,
  text: string,
  parse: YamlParse = yamlLibrary.get().parse,
): AuditPolicy {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new AuditPolicyError(`failed decoding: ${e instanceof Error ? e.message : String(e)}`);
  }
  return auditPolicyOfDocument(profile, doc);
}

/** Validates a policy already decoded (a built-in default needs no YAML), as `parseAuditPolicy` does. */
export function auditPolicyOfDocument(profile: NamingProfile, doc: unknown): AuditPolicy {
  const o = (doc ?? {}) as Record<string, unknown>;
  const group = `audit.${profile.groupSuffix}`;
  if (o.kind !== 'Policy' || (o.apiVersion !== `${group}/v1` && o.apiVersion !== `${group}/v1beta1`))
    throw new AuditPolicyError(
      `failed decoding: expected ${group}/v1 Policy, got ${String(o.apiVersion)} ${String(o.kind)}`,
    );
  if (!Array.isArray(o.rules) || o.rules.length === 0)
    throw new AuditPolicyError('loaded illegal policy with 0 rules');
  const rules = (o.rules as unknown[]).map((raw, i): PolicyRule => {
    const r = (raw ?? {}) as Record<string, unknown>;
    const path = `rules[${i}]`;
    if (!levels.includes(r.level as AuditLevel))
      throw new AuditPolicyError(`${path}.level: Unsupported value: "${String(r.level)}"`);
    const rule: PolicyRule = { level: r.level as AuditLevel };
    const users = strings(r.users, `${path}.users`);
    const userGroups = strings(r.userGroups, `${path}.userGroups`);
    const verbs = strings(r.verbs, `${path}.verbs`);
    const namespaces = strings(r.namespaces, `${path}.namespaces`);
    const nonResourceURLs = strings(r.nonResourceURLs, `${path}.nonResourceURLs`);
    if (users !== undefined) rule.users = users;
    if (userGroups !== undefined) rule.userGroups = userGroups;
    if (verbs !== undefined) rule.verbs = verbs;
    if (namespaces !== undefined) rule.namespaces = namespaces;
    if (nonResourceURLs !== undefined) rule.nonResourceURLs = nonResourceURLs;
    if (Array.isArray(r.resources))
      rule.resources = (r.resources as unknown[]).map((g, j) => {
        const gr = (g ?? {}) as Record<string, unknown>;
        const out: GroupResources = {};
        if (typeof gr.group === 'string') out.group = gr.group;
        const res = strings(gr.resources, `${path}.resources[${j}].resources`);
        const names = strings(gr.resourceNames, `${path}.resources[${j}].resourceNames`);
        if (res !== undefined) out.resources = res;
        if (names !== undefined) out.resourceNames = names;
        return out;
      });
    if ((rule.resources !== undefined || rule.namespaces !== undefined) && rule.nonResourceURLs !== undefined)
      throw new AuditPolicyError(
        `${path}.nonResourceURLs: Invalid value: rules cannot apply to both regular resources and non-resource URLs`,
      );
    if (r.omitStages !== undefined) rule.omitStages = stageList(r.omitStages, `${path}.omitStages`);
    if (typeof r.omitManagedFields === 'boolean') rule.omitManagedFields = r.omitManagedFields;
    return rule;
  });
  return {
    rules,
    omitStages: stageList(o.omitStages, 'omitStages'),
    omitManagedFields: o.omitManagedFields === true,
  };
}

/** One policy that audits everything at `level` (the browser's live audit view). */
export function uniformPolicy(level: AuditLevel): AuditPolicy {
  return { rules: [{ level }], omitStages: [], omitManagedFields: false };
}

function matchesResource(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.namespaces !== undefined && !rule.namespaces.includes(a.namespace)) return false;
  if (rule.resources === undefined || rule.resources.length === 0) return true;
  const full = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  return rule.resources.some((gr) => {
    if ((gr.group ?? '') !== a.apiGroup && gr.group !== '*') return false;
    const resources = gr.resources ?? [];
    const resourceOk =
      resources.length === 0 ||
      resources.some(
        (r) =>
          r === '*' ||
          r === full ||
          r === '*/*' ||
          (r.startsWith('*/') && r.slice(2) === a.subresource && a.subresource !== '') ||
          (r.endsWith('/*') && r.slice(0, -2) === a.resource && a.subresource !== '') ||
          (r === a.resource && a.subresource === ''),
      );
    if (!resourceOk) return false;
    const names = gr.resourceNames ?? [];
    return names.length === 0 || names.includes(a.name);
  });
}

function matchesNonResource(rule: PolicyRule, a: AuditAttributes): boolean {
  if (rule.nonResourceURLs === undefined) return true;
  return rule.nonResourceURLs.some(
    (u) => u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))),
  );
}

/** Who a rule is matched against: the authenticated user. */
export interface AuditUser {
  username: string;
  groups?: readonly string[];
}

function ruleMatches(rule: PolicyRule, a: AuditAttributes, user: AuditUser): boolean {
  if (rule.users !== undefined && !rule.users.includes(user.username)) return false;
  const groups = user.groups ?? [];
  if (rule.userGroups !== undefined && !rule.userGroups.some((g) => groups.includes(g))) return false;
  if (rule.verbs !== undefined && !rule.verbs.includes(a.verb)) return false;
  if (a.resourceRequest) {
    // A non-resource rule never matches a resource request, and the reverse.
    if (rule.nonResourceURLs !== undefined) return false;
    return matchesResource(rule, a);
  }
  if (rule.resources !== undefined || rule.namespaces !== undefined) return false;
  return matchesNonResource(rule, a);
}

/** The first matching rule's level, or None. */
export function evaluatePolicy(
  policy: AuditPolicy,
  a: AuditAttributes,
  user: AuditUser,
): Readonly<PolicyDecision> {
  for (const rule of policy.rules) if (ruleMatches(rule, a, user)) return decisionOf(policy, rule);
  return noAudit;
}

const noAudit: Readonly<PolicyDecision> = Object.freeze({
  level: 'None',
  omitStages: Object.freeze([]),
  omitManagedFields: false,
});

/** A rule's decision depends on the policy and the rule only: made once each (every request asks). */
const decisions = new WeakMap<AuditPolicy, Map<PolicyRule, Readonly<PolicyDecision>>>();

function decisionOf(policy: AuditPolicy, rule: PolicyRule): Readonly<PolicyDecision> {
  let byRule = decisions.get(policy);
  if (byRule === undefined) decisions.set(policy, (byRule = new Map()));
  let decision = byRule.get(rule);
  if (decision === undefined) {
    decision = Object.freeze({
      level: rule.level,
      omitStages: Object.freeze([...new Set([...policy.omitStages, ...(rule.omitStages ?? [])])]),
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
    });
    byRule.set(rule, decision);
  }
  return decision;
}
