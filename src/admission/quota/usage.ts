/**
 * A ResourceQuota as the quota code reads it (its hard limits, its scopes
 * from `spec.scopes` and `spec.scopeSelector`) and the recount of what a
 * namespace uses against it, object by object from the listers, as the real
 * quota controller computes `status.used`: every hard name gets a value
 * (zero when nothing uses it), and only objects in all the quota's scopes
 * are charged. Recounting rather than carrying sums forward is what makes a
 * deletion free its share.
 */

import type { KubeObject } from '../../api/meta';
import type { QuotaEvaluator, QuotaEvaluators, ScopeSelectorRequirement } from './evaluators';
import { addLists, count, parseResourceList, toWire, type ResourceList } from '../../machinery/quantity';

export interface QuotaSpec {
  hard?: Record<string, unknown>;
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopeSelectorRequirement[] };
}

export interface QuotaStatus {
  hard?: Record<string, unknown>;
  used?: Record<string, unknown>;
}

export function quotaSpec(quota: KubeObject): QuotaSpec {
  return (quota.spec ?? {}) as QuotaSpec;
}

export function quotaStatus(quota: KubeObject): QuotaStatus {
  return (quota.status ?? {}) as QuotaStatus;
}

/** The limits in force: the status' copy once the controller has set it, the spec's before. */
export function hardOf(quota: KubeObject): ResourceList {
  const status = quotaStatus(quota).hard;
  return parseResourceList(
    status !== undefined && Object.keys(status).length > 0 ? status : quotaSpec(quota).hard,
  );
}

/** `spec.scopes` are shorthand for `Exists` requirements. */
export function scopesOf(quota: KubeObject): ScopeSelectorRequirement[] {
  const spec = quotaSpec(quota);
  return [
    ...(spec.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(spec.scopeSelector?.matchExpressions ?? []),
  ];
}

/** Whether a quota charges this object: it tracks something the evaluator counts and the object is in every scope. */
export function quotaMatches(quota: KubeObject, evaluator: QuotaEvaluator, object: KubeObject): boolean {
  if (evaluator.matchingResources([...hardOf(quota).keys()]).length === 0) return false;
  return scopesOf(quota).every((s) => evaluator.matchesScope(s, object));
}

/** Lists one resource's objects of a namespace; undefined when the resource is not served. */
export type NamespaceListFunc = (
  group: string,
  resource: string,
  namespace: string,
) => KubeObject[] | undefined;

/** Only the entries named. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v !== undefined) out.set(n, v);
  }
  return out;
}

/** What the namespace uses of each of the quota's hard names. */
export function recount(
  evaluators: QuotaEvaluators,
  quota: KubeObject,
  namespace: string,
  list: NamespaceListFunc,
  now: Date,
): ResourceList {
  const hardNames = [...hardOf(quota).keys()];
  let used: ResourceList = new Map(hardNames.map((n) => [n, count(0)]));
  const scopes = scopesOf(quota);
  for (const evaluator of evaluators.evaluatorsForHard(hardNames)) {
    const tracked = evaluator.matchingResources(hardNames);
    for (const item of list(evaluator.group, evaluator.resource, namespace) ?? []) {
      if (!scopes.every((s) => evaluator.matchesScope(s, item))) continue;
      used = addLists(used, mask(evaluator.usage(item, now), tracked));
    }
  }
  return used;
}

/** The status a quota should show for this usage; undefined when it already does. */
export function statusUpdate(quota: KubeObject, used: ResourceList): QuotaStatus | undefined {
  const hard = quotaSpec(quota).hard ?? {};
  const wanted: QuotaStatus = { hard: { ...hard }, used: toWire(mask(used, Object.keys(hard))) };
  const have = quotaStatus(quota);
  const same =
    JSON.stringify(sorted(have.hard ?? {})) === JSON.stringify(sorted(wanted.hard ?? {})) &&
    JSON.stringify(sorted(have.used ?? {})) === JSON.stringify(wanted.used);
  return same ? undefined : wanted;
}

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}
