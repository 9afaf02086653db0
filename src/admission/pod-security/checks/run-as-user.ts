/**
 * Restricted (v1.23+): neither the pod nor a container may set runAsUser=0.
 */

import { containersPhrase, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function runAsUser(_meta: unknown, spec: PodSpecView): CheckResult {
  const setters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) setters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.runAsUser === 0) bad.push(c.name ?? '');
  });
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return forbidden('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`);
}

export const runAsUserCheck: Check = {
  id: 'runAsUser',
  level: 'restricted',
  versions: [{ minimumVersion: 23, checkPod: runAsUser }],
};
