/**
 * Baseline: the default /proc masks must stay (securityContext.procMount
 * unset or `Default`).
 */

import { containersPhrase, joinQuote, sortedSet, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function procMount(_meta: unknown, spec: PodSpecView): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (c) => {
    const t = c.securityContext?.procMount;
    if (t === undefined || t === null || t === 'Default') return;
    bad.push(c.name ?? '');
    types.push(t);
  });
  if (bad.length === 0) return allowed;
  return forbidden(
    'procMount',
    `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  );
}

export const procMountCheck: Check = {
  id: 'procMount',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: procMount }],
};
