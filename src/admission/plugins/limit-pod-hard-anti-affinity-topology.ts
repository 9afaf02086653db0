/**
 * LimitPodHardAntiAffinityTopology: a pod's required (hard) pod
 * anti-affinity terms may only use the node host name label as topology key
 * (`<labelDomain>/hostname`), so one pod cannot keep others off a whole zone.
 * Preferred terms are free. Checked on create and update.
 */

import type { AdmissionPluginFactory } from '../types';
import { objectForbidden } from './support/errors';
import { isNotPod, podSpecOf } from './support/pod-shape';

export const limitPodHardAntiAffinityTopology: AdmissionPluginFactory = (deps) => {
  const hostnameLabel = deps.profile.prefixed('hostname');
  return {
    name: 'LimitPodHardAntiAffinityTopology',
    operations: ['CREATE', 'UPDATE'],
    validate(a) {
      if (isNotPod(a) || a.object === undefined) return Promise.resolve();
      const terms = podSpecOf(a.object).affinity?.podAntiAffinity
        ?.requiredDuringSchedulingIgnoredDuringExecution;
      for (const term of Array.isArray(terms) ? terms : []) {
        const key = term.topologyKey ?? '';
        if (key !== hostnameLabel) {
          return Promise.reject(
            objectForbidden(
              a,
              a.object,
              `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${key} but only key ${hostnameLabel} is allowed`,
            ),
          );
        }
      }
      return Promise.resolve();
    },
  };
};
