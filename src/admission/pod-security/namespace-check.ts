/**
 * Namespace writes: the pod-security labels must be valid (422 naming each
 * bad label, on create, and on update when the errors changed), and a
 * stricter enforce level is dry-run against the pods already in the
 * namespace, answering warnings — a header line, then one line per distinct
 * violation naming the first pod (by name) and how many others share it.
 */

import type { KubeObject } from '../../api/meta';
import { invalid } from '../../machinery/errors';
import { allow, type Decision } from './decision';
import { aggregate, type Evaluator } from './evaluator';
import {
  compareLevels,
  fullyPrivileged,
  levelVersionString,
  modes,
  policyToEvaluate,
  sameLevelVersion,
  versionString,
  type LevelVersion,
  type Policy,
  type PolicyLabels,
} from './levels';
import { podOf } from './pod-spec';
import type { PodSecurityConfig } from './config';

/** The real plugin checks at most this many pods (and for at most a second). */
const maxPodsToCheck = 3000;

export interface NamespaceCheckContext {
  config: PodSecurityConfig;
  labels: PolicyLabels;
  evaluator: Evaluator;
  listPods(namespace: string): Promise<readonly KubeObject[]>;
}

function labelsOf(o: KubeObject | undefined): Record<string, string> | undefined {
  return o?.metadata?.labels;
}

/** Same effect: same levels, and same versions wherever the level is not privileged. */
function equivalent(a: Policy, b: Policy): boolean {
  return modes.every(
    (m) =>
      a[m].level === b[m].level &&
      (a[m].level === 'privileged' || versionString(a[m].version) === versionString(b[m].version)),
  );
}

function exemptNamespaceWarning(
  ctx: NamespaceCheckContext,
  name: string,
  policy: Policy,
  labels: Record<string, string> | undefined,
): string | undefined {
  if (fullyPrivileged(policy) || equivalent(policy, ctx.config.defaults)) return undefined;
  const parts: string[] = [];
  for (const m of modes) {
    const labelled =
      labels?.[ctx.labels.level[m]] !== undefined || labels?.[ctx.labels.version[m]] !== undefined;
    if (policy[m].level !== 'privileged' && labelled) parts.push(`${m}=${levelVersionString(policy[m])}`);
  }
  return `namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}

export async function checkNamespace(
  ctx: NamespaceCheckContext,
  operation: string,
  name: string,
  object: KubeObject,
  oldObject: KubeObject | undefined,
): Promise<Decision> {
  const labels = labelsOf(object);
  const { policy, errors } = policyToEvaluate(labels, ctx.config.defaults, ctx.labels);
  const exempt = ctx.config.exemptions.namespaces.has(name);
  const refuse = (): Decision => ({
    ...allow(),
    error: invalid({ group: '', kind: 'Namespace' }, name, errors),
  });
  const exemptAnswer = (): Decision => {
    const w = exemptNamespaceWarning(ctx, name, policy, labels);
    return allow({}, w === undefined ? [] : [w]);
  };
  if (operation === 'CREATE') {
    if (errors.length > 0) return refuse();
    return exempt ? exemptAnswer() : allow();
  }
  if (operation !== 'UPDATE') return allow();
  const old = policyToEvaluate(labelsOf(oldObject), ctx.config.defaults, ctx.labels);
  if (errors.length > 0 && (old.errors.length === 0 || JSON.stringify(errors) !== JSON.stringify(old.errors)))
    return refuse();
  if (sameLevelVersion(policy.enforce, old.policy.enforce)) return allow();
  if (policy.enforce.level === 'privileged') return allow();
  if (
    versionString(policy.enforce.version) === versionString(old.policy.enforce.version) &&
    compareLevels(policy.enforce.level, old.policy.enforce.level) < 1
  )
    return allow();
  if (exempt) return exemptAnswer();
  return allow({}, await evaluatePodsInNamespace(ctx, name, policy.enforce));
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One pod per controller first, so a big ReplicaSet cannot hide other workloads' violations. */
function prioritize(ctx: NamespaceCheckContext, pods: readonly KubeObject[]): KubeObject[] {
  const first: KubeObject[] = [];
  const duplicates: KubeObject[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    const runtimeClass = podOf(pod).spec.runtimeClassName;
    if (
      runtimeClass !== undefined &&
      runtimeClass !== '' &&
      ctx.config.exemptions.runtimeClasses.has(runtimeClass)
    )
      continue;
    const controller = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (controller === undefined) first.push(pod);
    else if (seen.has(controller.uid)) duplicates.push(pod);
    else {
      seen.add(controller.uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

export async function evaluatePodsInNamespace(
  ctx: NamespaceCheckContext,
  namespace: string,
  enforce: LevelVersion,
): Promise<string[]> {
  let listed: readonly KubeObject[];
  try {
    listed = await ctx.listPods(namespace);
  } catch {
    return ['failed to list pods while checking new PodSecurity enforce level'];
  }
  // The real lister's order is arbitrary; by name keeps the warnings reproducible.
  const sorted = [...listed].sort((a, b) => byteOrder(a.metadata?.name ?? '', b.metadata?.name ?? ''));
  const prioritized = prioritize(ctx, sorted);
  const total = prioritized.length;
  const checked = prioritized.slice(0, maxPodsToCheck);
  const counts = new Map<string, { podName: string; count: number }>();
  for (const pod of checked) {
    const { meta, spec } = podOf(pod);
    const r = aggregate(ctx.evaluator.evaluatePod(enforce, meta, spec));
    if (r.allowed) continue;
    const podName = pod.metadata?.name ?? '';
    const c = counts.get(r.forbiddenReason);
    if (c === undefined) counts.set(r.forbiddenReason, { podName, count: 1 });
    else {
      c.count++;
      if (podName < c.podName) c.podName = podName;
    }
  }
  const warnings: string[] = [];
  if (checked.length < total)
    warnings.push(
      `new PodSecurity enforce level only checked against the first ${checked.length} of ${total} existing pods`,
    );
  if (counts.size > 0)
    warnings.push(
      `existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`,
    );
  const podWarnings = [...counts].map(([reason, { podName, count }]) => {
    if (count === 1) return `${podName}: ${reason}`;
    if (count === 2) return `${podName} (and 1 other pod): ${reason}`;
    return `${podName} (and ${count - 1} other pods): ${reason}`;
  });
  // Go's sort.Strings: byte order, not locale order.
  podWarnings.sort(byteOrder);
  return [...warnings, ...podWarnings];
}
