/**
 * How the scheduler ranks the nodes a pod fits, after the default
 * profile's score plugins: NodeResourcesFit (least allocated: the most
 * room left after the pod, CPU and memory alike, pods without requests
 * counted as 100m and 200Mi), spreading (fewer pods of the same owner, or
 * with the same labels, on the node and in its zone — what the default
 * topology spread constraints achieve), preferred node affinity, preferred
 * pod (anti-)affinity and TaintToleration (fewer untolerated
 * PreferNoSchedule taints). Ties are broken at random, as the scheduler's
 * reservoir sampling does.
 */

import type { Node } from '../../api/node';
import type { Pod } from '../../api/pod';
import { matchesLabelSelector } from '../../machinery/scheduling/label-selector';
import { termMatches } from '../../machinery/scheduling/node-affinity';
import { toleratesTaint } from '../../machinery/scheduling/taints';
import { nodeAllocatable, podRequests, type NodeInfo } from './node-info';

const defaultCpu = 100;
const defaultMemory = 200 * 1024 * 1024;

function nonZero(r: Map<string, number>): { cpu: number; memory: number } {
  return { cpu: r.get('cpu') || defaultCpu, memory: r.get('memory') || defaultMemory };
}

function leastAllocated(pod: Pod, node: Node, info: NodeInfo): number {
  const alloc = nodeAllocatable(node);
  const want = nonZero(podRequests(pod));
  let used = { cpu: 0, memory: 0 };
  for (const p of info.pods.values()) {
    const r = nonZero(podRequests(p));
    used = { cpu: used.cpu + r.cpu, memory: used.memory + r.memory };
  }
  const score = (capacity: number, requested: number) =>
    capacity <= 0 ? 0 : Math.max(0, ((capacity - requested) * 100) / capacity);
  return (
    (score(alloc.get('cpu') ?? 0, used.cpu + want.cpu) +
      score(alloc.get('memory') ?? 0, used.memory + want.memory)) /
    2
  );
}

function controllerOf(pod: Pod): string | undefined {
  return pod.metadata?.ownerReferences?.find((o) => o.controller === true)?.uid;
}

/** Pods on the node that belong with the incoming one (same controller, or the same labels without one). */
function siblings(pod: Pod, info: NodeInfo): number {
  const owner = controllerOf(pod);
  const labels = JSON.stringify(pod.metadata?.labels ?? {});
  let n = 0;
  for (const p of info.pods.values()) {
    if ((p.metadata?.namespace ?? '') !== (pod.metadata?.namespace ?? '')) continue;
    if (
      owner !== undefined
        ? controllerOf(p) === owner
        : labels !== '{}' && JSON.stringify(p.metadata?.labels ?? {}) === labels
    )
      n++;
  }
  return n;
}

function preferredNodeAffinity(pod: Pod, node: Node): number {
  let score = 0;
  for (const p of pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    if (termMatches(p.preference, node)) score += p.weight;
  return score;
}

function preferredPodAffinity(pod: Pod, node: Node, all: NodeInfo[]): number {
  const a = pod.spec?.affinity;
  let score = 0;
  const weigh = (
    terms:
      { weight: number; podAffinityTerm: { topologyKey: string; labelSelector?: unknown } }[] | undefined,
    sign: number,
  ) => {
    for (const t of terms ?? []) {
      const key = t.podAffinityTerm.topologyKey;
      const v = node.metadata?.labels?.[key];
      if (v === undefined) continue;
      const matching = all
        .filter((i) => i.node?.metadata?.labels?.[key] === v)
        .some((i) =>
          [...i.pods.values()].some((p) =>
            matchesLabelSelector(t.podAffinityTerm.labelSelector as never, p.metadata?.labels),
          ),
        );
      if (matching) score += sign * t.weight;
    }
  };
  weigh(a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, 1);
  weigh(a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, -1);
  return score;
}

function preferNoSchedule(pod: Pod, node: Node): number {
  return (node.spec?.taints ?? []).filter(
    (t) =>
      t.effect === 'PreferNoSchedule' && !(pod.spec?.tolerations ?? []).some((x) => toleratesTaint(x, t)),
  ).length;
}

/** The node the pod goes to among those it fits. */
export function pickNode(
  pod: Pod,
  feasible: NodeInfo[],
  all: NodeInfo[],
  random: () => number = Math.random,
): NodeInfo | undefined {
  let best: NodeInfo | undefined;
  let bestScore = -Infinity;
  let ties = 0;
  for (const info of feasible) {
    const node = info.node;
    if (node === undefined) continue;
    const score =
      leastAllocated(pod, node, info) +
      preferredNodeAffinity(pod, node) +
      preferredPodAffinity(pod, node, all) -
      siblings(pod, info) * 50 -
      preferNoSchedule(pod, node) * 30;
    if (score > bestScore) {
      best = info;
      bestScore = score;
      ties = 1;
    } else if (score === bestScore && random() < 1 / ++ties) best = info;
  }
  return best;
}
