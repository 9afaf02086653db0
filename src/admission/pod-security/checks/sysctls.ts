/**
 * Baseline: only the namespaced, pod-isolated "safe" sysctls may be set;
 * v1.27 added net.ipv4.ip_local_reserved_ports to the safe set.
 */

import type { PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult, type CheckPodFn } from './types';

const safeV1Dot0 = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const safeV1Dot27 = [...safeV1Dot0, 'net.ipv4.ip_local_reserved_ports'];

function sysctlsAllowing(safe: readonly string[]): CheckPodFn {
  const allowedNames = new Set(safe);
  return (_meta: unknown, spec: PodSpecView): CheckResult => {
    const bad = (spec.securityContext?.sysctls ?? [])
      .map((s) => s.name ?? '')
      .filter((n) => !allowedNames.has(n));
    return bad.length === 0 ? allowed : forbidden('forbidden sysctls', bad.join(', '));
  };
}

export const sysctlsCheck: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: sysctlsAllowing(safeV1Dot0) },
    { minimumVersion: 27, checkPod: sysctlsAllowing(safeV1Dot27) },
  ],
};
