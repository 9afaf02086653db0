/**
 * Flow control v1beta2 ↔ v1beta3 (the hub): PriorityLevelConfiguration's
 * `spec.limited.assuredConcurrencyShares` was renamed
 * `nominalConcurrencyShares` (the spec's removed-versions table); FlowSchema
 * has the same shape in both.
 */

import type { KubeObject } from '../../api/meta';
import { deepClone } from '../../machinery/json';
import type { Spoke } from '../conversion';

function renameShares(obj: KubeObject, from: string, to: string): KubeObject {
  const out = deepClone(obj);
  const limited = (out.spec as { limited?: Record<string, unknown> } | undefined)?.limited;
  if (limited !== undefined && from in limited) {
    limited[to] = limited[from];
    delete limited[from];
  }
  return out;
}

export function flowcontrolV1beta2Spoke(apiVersion: string): Spoke {
  return {
    apiVersion,
    fromHub: (hub) => renameShares(hub, 'nominalConcurrencyShares', 'assuredConcurrencyShares'),
    toHub: (old) => renameShares(old, 'assuredConcurrencyShares', 'nominalConcurrencyShares'),
  };
}
