/**
 * Taints and tolerations as the scheduler, the DaemonSet controller and
 * the taint manager judge them (`v1.Toleration.ToleratesTaint`): a
 * toleration matches a taint when its effect is empty or the same, its key
 * is the same (or empty with `Exists`, which matches every key), and with
 * `Exists` any value, with `Equal` (or no operator) the same value.
 */

import type { Taint } from '../../api/node';
import type { Toleration } from '../../api/pod';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if ((t.effect ?? '') !== '' && t.effect !== taint.effect) return false;
  if ((t.key ?? '') !== taint.key && !((t.key ?? '') === '' && t.operator === 'Exists')) return false;
  switch (t.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
    case '':
      return (t.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** The first taint with one of `effects` that no toleration tolerates, if any. */
export function firstUntolerated(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  effects: readonly string[],
): Taint | undefined {
  return (taints ?? []).find(
    (taint) => effects.includes(taint.effect) && !(tolerations ?? []).some((t) => toleratesTaint(t, taint)),
  );
}

/** A taint as the scheduler prints it in its reasons: `{key: value}`. */
export function taintText(taint: Taint): string {
  return `{${taint.key}: ${taint.value ?? ''}}`;
}
