/**
 * What the workload controllers ask of a Pod: whether it is active (neither
 * finished nor being deleted), ready, available for `minReadySeconds`, and
 * which pods to delete first when scaling down — the ranking of the real
 * ReplicaSet controller: unscheduled before scheduled, pending before
 * unknown before running, not ready before ready, a lower
 * `controller.<domain>/pod-deletion-cost` first, pods doubled up on a node
 * first, the most recently ready first, more restarts first, the newest
 * first.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { Condition, Pod } from './types';

export function isTerminating(obj: { metadata?: { deletionTimestamp?: string | null } }): boolean {
  const t = obj.metadata?.deletionTimestamp;
  return t !== undefined && t !== null;
}

export function podPhase(pod: Pod): string {
  return pod.status?.phase ?? '';
}

/** Not Succeeded, not Failed, not being deleted (`controller.IsPodActive`). */
export function isPodActive(pod: Pod): boolean {
  const phase = podPhase(pod);
  return phase !== 'Succeeded' && phase !== 'Failed' && !isTerminating(pod);
}

export function podCondition(pod: Pod, type: string): Condition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

export function isPodReady(pod: Pod): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/** Ready for at least `minReadySeconds` by `now` (`podutil.IsPodAvailable`). */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: Date): boolean {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True') return false;
  if (minReadySeconds <= 0) return true;
  const since = ready.lastTransitionTime !== undefined ? Date.parse(ready.lastTransitionTime) : NaN;
  return !Number.isNaN(since) && since + minReadySeconds * 1000 < now.getTime();
}

/** When the pod's Ready condition last turned true, or undefined when it is not ready. */
function readySince(pod: Pod): number | undefined {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True' || ready.lastTransitionTime === undefined) return undefined;
  const t = Date.parse(ready.lastTransitionTime);
  return Number.isNaN(t) ? undefined : t;
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function restarts(pod: Pod): number {
  return (pod.status?.containerStatuses ?? []).reduce((n, c) => Math.max(n, c.restartCount ?? 0), 0);
}

function created(pod: Pod): number | undefined {
  const t = pod.metadata?.creationTimestamp;
  if (t === undefined || t === null) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Pods in the order the real controller deletes them when it has too many. */
export function rankForDeletion(pods: Pod[], related: Pod[], profile: NamingProfile): Pod[] {
  const costKey = profile.subPrefixed('controller', 'pod-deletion-cost');
  const onNode = new Map<string, number>();
  for (const p of related) {
    const node = p.spec?.nodeName ?? '';
    if (node !== '' && isPodActive(p)) onNode.set(node, (onNode.get(node) ?? 0) + 1);
  }
  const cost = (p: Pod): number => {
    const v = Number(p.metadata?.annotations?.[costKey] ?? 0);
    return Number.isFinite(v) ? v : 0;
  };
  const rank = (p: Pod): number => onNode.get(p.spec?.nodeName ?? '') ?? 0;
  const compare = (a: Pod, b: Pod): number => {
    const aNode = (a.spec?.nodeName ?? '') !== '';
    const bNode = (b.spec?.nodeName ?? '') !== '';
    if (aNode !== bNode) return aNode ? 1 : -1;
    const pa = phaseRank[podPhase(a)] ?? 0;
    const pb = phaseRank[podPhase(b)] ?? 0;
    if (pa !== pb) return pa - pb;
    const ra = isPodReady(a);
    const rb = isPodReady(b);
    if (ra !== rb) return ra ? 1 : -1;
    if (cost(a) !== cost(b)) return cost(a) - cost(b);
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (ra && rb) {
      const ta = readySince(a);
      const tb = readySince(b);
      if (ta !== tb) {
        if (ta === undefined) return -1;
        if (tb === undefined) return 1;
        return tb - ta;
      }
    }
    if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
    const ca = created(a);
    const cb = created(b);
    if (ca !== cb) {
      if (ca === undefined) return -1;
      if (cb === undefined) return 1;
      return cb - ca;
    }
    return 0;
  };
  return [...pods].sort(compare);
}
