/**
 * Baseline: Windows HostProcess containers (full host access) are
 * forbidden on the pod and on every container.
 */

import { containersPhrase, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function windowsHostProcess(_meta: unknown, spec: PodSpecView): CheckResult {
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.windowsOptions?.hostProcess === true) bad.push(c.name ?? '');
  });
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return allowed;
  return forbidden(
    'hostProcess',
    `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
  );
}

export const windowsHostProcessCheck: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: windowsHostProcess }],
};
