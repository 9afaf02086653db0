/**
 * Pod conditions as the real server's `UpdatePodCondition` sets them, for
 * the writes of binding (PodScheduled) and eviction (DisruptionTarget).
 */

import type { KubeObject } from '../../../../api/meta';
import { rfc3339Seconds } from '../../../../machinery/ids';

export interface PodCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string | null;
}

/** A pod condition set anew; its transition time moves only when its status does. */
export function setPodCondition(pod: KubeObject, condition: PodCondition, now: Date): void {
  const status = (pod.status ?? (pod.status = {})) as { conditions?: PodCondition[] };
  const conditions = status.conditions ?? (status.conditions = []);
  const i = conditions.findIndex((c) => c.type === condition.type);
  const old = i < 0 ? undefined : conditions[i];
  // The real type's field order: type, status, probe and transition times, reason, message.
  const next: PodCondition = {
    type: condition.type,
    status: condition.status,
    lastProbeTime: null,
    lastTransitionTime:
      old !== undefined && old.status === condition.status
        ? (old.lastTransitionTime ?? null)
        : rfc3339Seconds(now),
    ...(condition.reason !== undefined ? { reason: condition.reason } : {}),
    ...(condition.message !== undefined ? { message: condition.message } : {}),
  };
  if (i < 0) conditions.push(next);
  else conditions[i] = next;
}
