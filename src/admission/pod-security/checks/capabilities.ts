/**
 * Capabilities. Baseline: only the container runtime's default set may be
 * added. Restricted (v1.22+, replacing the baseline check): every container
 * drops ALL and adds nothing but NET_BIND_SERVICE; from v1.25 Windows pods
 * are exempt, capabilities being a Linux notion.
 */

import {
  containersPhrase,
  isWindowsPod,
  joinQuote,
  sortedSet,
  visitContainers,
  type PodSpecView,
} from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

const defaultCapabilities = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

function capabilitiesBaseline(_meta: unknown, spec: PodSpecView): CheckResult {
  const bad: string[] = [];
  const added: string[] = [];
  visitContainers(spec, (c) => {
    const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !defaultCapabilities.has(cap));
    if (extra.length === 0) return;
    bad.push(c.name ?? '');
    added.push(...extra);
  });
  if (bad.length === 0) return allowed;
  return forbidden(
    'non-default capabilities',
    `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add`,
  );
}

function capabilitiesRestricted(_meta: unknown, spec: PodSpecView): CheckResult {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];
  visitContainers(spec, (c) => {
    const caps = c.securityContext?.capabilities;
    if (caps === undefined || caps === null) {
      missingDropAll.push(c.name ?? '');
      return;
    }
    if (!(caps.drop ?? []).includes('ALL')) missingDropAll.push(c.name ?? '');
    const extra = (caps.add ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (extra.length > 0) {
      addingForbidden.push(c.name ?? '');
      forbiddenCaps.push(...extra);
    }
  });
  const details: string[] = [];
  if (missingDropAll.length > 0)
    details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0)
    details.push(
      `${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCaps))} in securityContext.capabilities.add`,
    );
  return details.length === 0 ? allowed : forbidden('unrestricted capabilities', details.join('; '));
}

function capabilitiesRestrictedLinuxOnly(meta: unknown, spec: PodSpecView): CheckResult {
  return isWindowsPod(spec) ? allowed : capabilitiesRestricted(meta, spec);
}

export const capabilitiesBaselineCheck: Check = {
  id: 'capabilities_baseline',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: capabilitiesBaseline }],
};

export const capabilitiesRestrictedCheck: Check = {
  id: 'capabilities_restricted',
  level: 'restricted',
  versions: [
    { minimumVersion: 22, checkPod: capabilitiesRestricted, overrides: ['capabilities_baseline'] },
    { minimumVersion: 25, checkPod: capabilitiesRestrictedLinuxOnly, overrides: ['capabilities_baseline'] },
  ],
};
