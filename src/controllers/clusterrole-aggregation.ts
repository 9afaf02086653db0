/**
 * ClusterRole aggregation, as the real controller manager's
 * clusterrole-aggregation controller does it (v1.27): a ClusterRole with an
 * `aggregationRule` gets as rules the union of the rules of every other
 * ClusterRole matched by any of its `clusterRoleSelectors`, taken selector
 * by selector, the matches of each selector in name order, each rule once
 * (deep equality). The result is written with server-side apply under the
 * field manager `clusterrole-aggregation-controller` with force, falling
 * back to a PUT when the server does not take apply patches. Because which
 * roles feed which is not known in advance, any ClusterRole event queues
 * every aggregated role, as upstream does. It acts as the service account
 * `clusterrole-aggregation-controller` of the system namespace, whose
 * controller role grants `escalate` so it may write rules it does not hold.
 */

import type { KubeObject } from '../api/meta';
import type { AggregationRule, ClusterRole, PolicyRule } from '../auth/policy/types';
import { ApiError } from '../client/errors';
import type { ResourceRef } from '../client/paths';
import { selectorToString } from '../machinery/label-selector-text';
import { matchesLabels, parseLabelSelector, type LabelRequirement } from '../machinery/selectors/labels';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

/** The field manager of its apply requests, as upstream. */
export const CLUSTERROLE_AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';
/** The service account (in the system namespace) the controller acts as. */
export const CLUSTERROLE_AGGREGATION_SERVICE_ACCOUNT = 'clusterrole-aggregation-controller';

type StoredRole = KubeObject & {
  metadata: { name?: string; labels?: Record<string, string> };
  aggregationRule?: AggregationRule | null;
  rules?: PolicyRule[] | null;
};

function sameList(a: readonly string[] | undefined | null, b: readonly string[] | undefined | null): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** Semantic equality of rules: an absent list equals an empty one, order within lists matters. */
export function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return (
    sameList(a.verbs, b.verbs) &&
    sameList(a.apiGroups, b.apiGroups) &&
    sameList(a.resources, b.resources) &&
    sameList(a.resourceNames, b.resourceNames) &&
    sameList(a.nonResourceURLs, b.nonResourceURLs)
  );
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i] as PolicyRule));
}

function byName(a: StoredRole, b: StoredRole): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The rules an aggregated role should have, from the roles it can see (upstream `syncClusterRole`).
 * Returns `undefined` when a selector cannot be read, so nothing is written from a partial view.
 */
export function aggregatedRules(role: StoredRole, all: Iterable<StoredRole>): PolicyRule[] | undefined {
  const roles = [...all];
  const out: PolicyRule[] = [];
  for (const selector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    let requirements: LabelRequirement[];
    try {
      requirements = parseLabelSelector(selectorToString(selector));
    } catch {
      return undefined;
    }
    const matched = roles.filter((r) => matchesLabels(requirements, r.metadata.labels)).sort(byName);
    for (const source of matched) {
      // A role never feeds itself, even when its own labels match.
      if (source.metadata.name === role.metadata.name) continue;
      for (const rule of source.rules ?? []) if (!out.some((r) => sameRule(r, rule))) out.push(rule);
    }
  }
  return out;
}

export function clusterRoleAggregationController(ctx: ControllerContext): Controller {
  const rbacGroup = ctx.profile.suffixed('rbac.authorization');
  const ref: ResourceRef = { group: rbacGroup, version: 'v1', resource: 'clusterroles' };

  const reconcile = async (name: string): Promise<void> => {
    await informer.synced;
    const role = informer.cache.get(name) as StoredRole | undefined;
    if (role === undefined || role.aggregationRule === undefined || role.aggregationRule === null) return;
    const rules = aggregatedRules(role, informer.cache.values() as Iterable<StoredRole>);
    if (rules === undefined || sameRules(rules, role.rules ?? [])) return;
    await write(role, rules);
  };

  const write = async (role: StoredRole, rules: PolicyRule[]): Promise<void> => {
    const name = role.metadata.name ?? '';
    // Only the rules are declared, so the controller owns them and nothing else of the role.
    const intent: Record<string, unknown> = {
      apiVersion: `${rbacGroup}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
    };
    // Upstream's apply configuration leaves out an empty rule list; so does this one.
    if (rules.length > 0) intent['rules'] = rules;
    try {
      await ctx.client.patch({ ...ref, name }, JSON.stringify(intent), 'application/apply-patch+yaml', {
        fieldManager: CLUSTERROLE_AGGREGATION_FIELD_MANAGER,
        force: true,
      });
    } catch (e) {
      // A server without server-side apply: replace the rules of the copy that was read instead.
      if (!(e instanceof ApiError) || e.code !== 415) throw e;
      const updated: ClusterRole = { ...(structuredClone(role) as ClusterRole), rules };
      await ctx.client.update({ ...ref, name }, updated);
    }
  };

  const queue = new WorkQueue(reconcile);
  // Any ClusterRole can feed any aggregated one, so every aggregated role is looked at again.
  const enqueueAll = (): void => {
    for (const [key, obj] of informer.cache) {
      const r = (obj as StoredRole).aggregationRule;
      if (r !== undefined && r !== null) queue.add(key);
    }
  };
  const informer: Informer = new Informer(ctx.client, ref, {
    add: enqueueAll,
    update: enqueueAll,
    delete: enqueueAll,
  });

  return {
    name: 'clusterrole-aggregation',
    start: () => informer.start(),
    stop: () => {
      informer.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
