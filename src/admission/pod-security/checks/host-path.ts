/**
 * Baseline: hostPath volumes are forbidden. (The restricted volume-type
 * check replaces this one at the restricted level.)
 */

import { joinQuote, pluralize, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function hostPathVolumes(_meta: unknown, spec: PodSpecView): CheckResult {
  const bad = (spec.volumes ?? [])
    .filter((v) => v.hostPath !== undefined && v.hostPath !== null)
    .map((v) => v.name ?? '');
  if (bad.length === 0) return allowed;
  return forbidden('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`);
}

export const hostPathVolumesCheck: Check = {
  id: 'hostPathVolumes',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPathVolumes }],
};
