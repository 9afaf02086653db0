/**
 * Baseline: sharing the host's network, PID or IPC namespace is forbidden
 * (spec.hostNetwork, spec.hostPID, spec.hostIPC must be unset or false).
 */

import type { PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function hostNamespaces(_meta: unknown, spec: PodSpecView): CheckResult {
  const set: string[] = [];
  if (spec.hostNetwork === true) set.push('hostNetwork=true');
  if (spec.hostPID === true) set.push('hostPID=true');
  if (spec.hostIPC === true) set.push('hostIPC=true');
  return set.length === 0 ? allowed : forbidden('host namespaces', set.join(', '));
}

export const hostNamespacesCheck: Check = {
  id: 'hostNamespaces',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostNamespaces }],
};
