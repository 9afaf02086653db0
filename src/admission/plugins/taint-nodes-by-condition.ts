/**
 * TaintNodesByCondition: every new Node starts with the not-ready
 * `NoSchedule` taint (`node.<labelDomain>/not-ready`), so nothing is
 * scheduled onto it before its agent reports it ready and the node
 * lifecycle controller lifts the taint. A node that already carries a taint
 * with that key and effect is left alone.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';

interface Taint {
  key?: string;
  effect?: string;
  [field: string]: unknown;
}

export const taintNodesByCondition: AdmissionPluginFactory = (deps) => {
  const notReady = deps.profile.subPrefixed('node', 'not-ready');
  return {
    name: 'TaintNodesByCondition',
    operations: ['CREATE'],
    admit(a): Promise<KubeObject | undefined> {
      if (a.group !== '' || a.resource !== 'nodes' || a.subresource !== '' || a.object === undefined)
        return Promise.resolve(undefined);
      const node = structuredClone(a.object) as KubeObject & { spec?: { taints?: Taint[] } };
      const spec = node.spec !== null && typeof node.spec === 'object' ? node.spec : {};
      const taints = Array.isArray(spec.taints) ? spec.taints : [];
      if (taints.some((t) => t.key === notReady && t.effect === 'NoSchedule'))
        return Promise.resolve(undefined);
      node.spec = { ...spec, taints: [...taints, { key: notReady, effect: 'NoSchedule' }] };
      return Promise.resolve(node);
    },
  };
};
