/**
 * Restricted (v1.8+): every container sets
 * securityContext.allowPrivilegeEscalation=false explicitly; from v1.25
 * Windows pods are exempt (no setuid on Windows).
 */

import { containersPhrase, isWindowsPod, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function allowPrivilegeEscalation(_meta: unknown, spec: PodSpecView): CheckResult {
  const bad: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.allowPrivilegeEscalation !== false) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return forbidden(
    'allowPrivilegeEscalation != false',
    `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
}

function allowPrivilegeEscalationLinuxOnly(meta: unknown, spec: PodSpecView): CheckResult {
  return isWindowsPod(spec) ? allowed : allowPrivilegeEscalation(meta, spec);
}

export const allowPrivilegeEscalationCheck: Check = {
  id: 'allowPrivilegeEscalation',
  level: 'restricted',
  versions: [
    { minimumVersion: 8, checkPod: allowPrivilegeEscalation },
    { minimumVersion: 25, checkPod: allowPrivilegeEscalationLinuxOnly },
  ],
};
