/**
 * Restricted: containers must run as non-root — runAsNonRoot=true on the
 * pod or on every container, and false nowhere.
 */

import { containersPhrase, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function runAsNonRoot(_meta: unknown, spec: PodSpecView): CheckResult {
  const setters: string[] = [];
  let podNonRoot = false;
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue === false) setters.push('pod');
  else if (podValue === true) podNonRoot = true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  visitContainers(spec, (c) => {
    const v = c.securityContext?.runAsNonRoot;
    if (v === false) explicit.push(c.name ?? '');
    else if (v !== true && !podNonRoot) implicit.push(c.name ?? '');
  });
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0)
    return forbidden(
      'runAsNonRoot != true',
      `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
    );
  if (implicit.length === 0) return allowed;
  return forbidden(
    'runAsNonRoot != true',
    `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`,
  );
}

export const runAsNonRootCheck: Check = {
  id: 'runAsNonRoot',
  level: 'restricted',
  versions: [{ minimumVersion: 0, checkPod: runAsNonRoot }],
};
