/**
 * Baseline: containers may not bind host ports (ports[*].hostPort unset or 0).
 */

import { containersPhrase, pluralize, visitContainers, type PodSpecView } from '../pod-view';
import { allowed, forbidden, type Check, type CheckResult } from './types';

function hostPorts(_meta: unknown, spec: PodSpecView): CheckResult {
  const bad: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    let uses = false;
    for (const p of c.ports ?? []) {
      if (p.hostPort !== undefined && p.hostPort !== null && p.hostPort !== 0) {
        uses = true;
        ports.push(String(p.hostPort));
      }
    }
    if (uses) bad.push(c.name ?? '');
  });
  if (bad.length === 0) return allowed;
  return forbidden(
    'hostPort',
    `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', ports.length)} ${ports.join(', ')}`,
  );
}

export const hostPortsCheck: Check = {
  id: 'hostPorts',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPorts }],
};
