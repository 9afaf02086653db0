/**
 * DefaultTolerationSeconds: a pod that does not already tolerate the
 * not-ready and unreachable `NoExecute` taints (`node.<labelDomain>/not-ready`,
 * `node.<labelDomain>/unreachable`) gets a toleration for each, bounded by
 * `--default-not-ready-toleration-seconds` and
 * `--default-unreachable-toleration-seconds` (300 each by default), so its
 * pods are evicted from a lost node after that long rather than at once. A
 * toleration with an empty key or empty effect already covers the taint.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { clonePod, isNotPod, podSpecOf } from './support/pod-shape';
import type { Toleration } from './support/tolerations';

export const defaultTolerationSeconds: AdmissionPluginFactory = (deps) => {
  const notReadyKey = deps.profile.subPrefixed('node', 'not-ready');
  const unreachableKey = deps.profile.subPrefixed('node', 'unreachable');
  const tolerates = (ts: readonly Toleration[], key: string) =>
    ts.some(
      (t) =>
        ((t.key ?? '') === key || (t.key ?? '') === '') &&
        ((t.effect ?? '') === 'NoExecute' || (t.effect ?? '') === ''),
    );
  return {
    name: 'DefaultTolerationSeconds',
    operations: ['CREATE', 'UPDATE'],
    admit(a): Promise<KubeObject | undefined> {
      if (isNotPod(a) || a.object === undefined) return Promise.resolve(undefined);
      const existing = podSpecOf(a.object).tolerations;
      const tolerations = Array.isArray(existing) ? existing : [];
      const added: Toleration[] = [];
      if (!tolerates(tolerations, notReadyKey))
        added.push({
          key: notReadyKey,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: deps.flags.defaultNotReadyTolerationSeconds,
        });
      if (!tolerates(tolerations, unreachableKey))
        added.push({
          key: unreachableKey,
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: deps.flags.defaultUnreachableTolerationSeconds,
        });
      if (added.length === 0) return Promise.resolve(undefined);
      const pod = clonePod(a.object);
      pod.spec.tolerations = [...tolerations, ...added];
      return Promise.resolve(pod);
    },
  };
};
