/**
 * Baseline: privileged containers are forbidden
 * (securityContext.privileged must be unset or false in every container).
 */

import { containersPhrase, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function privileged(_meta: unknown, spec: PodSpecView): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.privileged === true) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return forbidden('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`);
}

export const privilegedCheck: Check = {
  id: 'privileged',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: privileged }],
};
