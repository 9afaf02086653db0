/**
 * SecurityContextDeny (deprecated in v1.27): refuses pods whose pod
 * security context sets supplementalGroups, seLinuxOptions, runAsUser or
 * fsGroup, or whose containers set seLinuxOptions or runAsUser — checked in
 * that order, first finding wins, on create and update. The messages name
 * the Go fields, as the real plugin's do.
 */

import type { AdmissionPluginFactory } from '../types';
import { objectForbidden } from './support/errors';
import { isNotPod, podSpecOf, visitContainers } from './support/pod-shape';

/** Set, in the Go sense: present and not null (an empty list is set). */
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export const securityContextDeny: AdmissionPluginFactory = () => ({
  name: 'SecurityContextDeny',
  operations: ['CREATE', 'UPDATE'],
  validate(a) {
    if (isNotPod(a) || a.object === undefined) return Promise.resolve();
    const pod = a.object;
    const spec = podSpecOf(pod);
    const psc = spec.securityContext;
    if (psc !== undefined && psc !== null) {
      const podFields = [
        ['supplementalGroups', 'SupplementalGroups'],
        ['seLinuxOptions', 'SELinuxOptions'],
        ['runAsUser', 'RunAsUser'],
        ['fsGroup', 'FSGroup'],
      ] as const;
      for (const [field, goName] of podFields) {
        if (isSet(psc[field]))
          return Promise.reject(objectForbidden(a, pod, `pod.Spec.SecurityContext.${goName} is forbidden`));
      }
    }
    let why: string | undefined;
    visitContainers(spec, (c) => {
      const sc = c.securityContext;
      if (sc === undefined || sc === null) return true;
      if (isSet(sc.seLinuxOptions)) why = 'SecurityContext.SELinuxOptions is forbidden';
      else if (isSet(sc.runAsUser)) why = 'SecurityContext.RunAsUser is forbidden';
      return why === undefined;
    });
    return why === undefined ? Promise.resolve() : Promise.reject(objectForbidden(a, pod, why));
  },
});
