/**
 * Baseline: SELinux options may only pick one of the container types
 * (container_t, container_init_t, container_kvm_t) and never set a user or role.
 */

import { containersPhrase, joinQuote, pluralize, sortedSet, visitContainers } from '../pod-view';
import type { PodSpecView, SELinuxOptions } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

const allowedTypes = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

function seLinuxOptions(_meta: unknown, spec: PodSpecView): CheckResult {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (o: SELinuxOptions): boolean => {
    let ok = true;
    if (!allowedTypes.has(o.type ?? '')) {
      ok = false;
      badTypes.push(o.type ?? '');
    }
    if ((o.user ?? '') !== '') {
      ok = false;
      setUser = true;
    }
    if ((o.role ?? '') !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const setters: string[] = [];
  const podOptions = spec.securityContext?.seLinuxOptions;
  if (podOptions !== undefined && podOptions !== null && !valid(podOptions)) setters.push('pod');
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const o = c.securityContext?.seLinuxOptions;
    if (o !== undefined && o !== null && !valid(o)) badContainers.push(c.name ?? '');
  });
  if (badContainers.length > 0) setters.push(containersPhrase(badContainers));
  if (setters.length === 0) return allowed;
  const what: string[] = [];
  const types = sortedSet(badTypes);
  if (types.length > 0) what.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) what.push('user may not be set');
  if (setRole) what.push('role may not be set');
  return forbidden(
    'seLinuxOptions',
    `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${what.join('; ')}`,
  );
}

export const seLinuxOptionsCheck: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: seLinuxOptions }],
};
