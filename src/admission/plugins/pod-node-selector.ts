/**
 * PodNodeSelector: pods of a namespace are confined to the nodes its
 * selector names. The selector is the namespace annotation
 * `scheduler.alpha.<labelDomain>/node-selector`, or, absent that, the
 * configuration's `clusterDefaultNodeSelector`
 * (`podNodeSelectorPluginConfig` in the plugin's configuration); a new pod
 * gets it merged into `spec.nodeSelector`, and a pod selector that gives one
 * of its keys another value is refused. Per-namespace entries of the
 * configuration are whitelists: the pod's final selector must be a subset.
 * Malformed selectors are plain errors (500), as in the real plugin.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { objectForbidden, plainError } from './support/errors';
import {
  isLabelSubset,
  LabelSelectorSyntaxError,
  labelsConflict,
  mergeLabels,
  parseLabelSet,
  type LabelSet,
} from './support/label-set';
import { clonePod, isNotPod, podSpecOf } from './support/pod-shape';
import { notFound } from '../../machinery/errors';

/** `podNodeSelectorPluginConfig` of the plugin's configuration: selectors by namespace, plus `clusterDefaultNodeSelector`. */
export function parsePodNodeSelectorConfig(config: unknown): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  if (config === null || typeof config !== 'object') return out;
  const section = (config as { podNodeSelectorPluginConfig?: unknown }).podNodeSelectorPluginConfig;
  if (section === null || typeof section !== 'object') return out;
  for (const [k, v] of Object.entries(section as Record<string, unknown>))
    if (typeof v === 'string') out.set(k, v);
  return out;
}

function parseOrFail(selector: string): LabelSet {
  try {
    return parseLabelSet(selector);
  } catch (e) {
    if (e instanceof LabelSelectorSyntaxError) throw plainError(e.message);
    throw e;
  }
}

export const podNodeSelector: AdmissionPluginFactory = (deps) => {
  const clusterSelectors = parsePodNodeSelectorConfig(deps.config);
  const annotation = deps.profile.subPrefixed('scheduler.alpha', 'node-selector');
  const clusterDefault = clusterSelectors.get('clusterDefaultNodeSelector') ?? '';

  async function namespaceSelector(namespace: string): Promise<LabelSet> {
    const ns = await deps.namespaces.get(namespace);
    if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    const annotations = ns.metadata?.annotations ?? {};
    const own = Object.hasOwn(annotations, annotation) ? annotations[annotation] : undefined;
    return parseOrFail(own ?? clusterDefault);
  }

  const conflictError = (a: AdmissionAttributes, pod: KubeObject) =>
    objectForbidden(a, pod, 'pod node label selector conflicts with its namespace node label selector');

  function check(a: AdmissionAttributes, pod: KubeObject, nsSelector: LabelSet): void {
    const podSelector = podSpecOf(pod).nodeSelector ?? {};
    if (labelsConflict(nsSelector, podSelector)) throw conflictError(a, pod);
    const whitelist = parseOrFail(clusterSelectors.get(a.namespace) ?? '');
    if (!isLabelSubset(podSelector, whitelist))
      throw objectForbidden(a, pod, 'pod node label selector labels conflict with its namespace whitelist');
  }

  return {
    name: 'PodNodeSelector',
    operations: ['CREATE'],
    async admit(a) {
      if (isNotPod(a) || a.object === undefined) return undefined;
      const nsSelector = await namespaceSelector(a.namespace);
      const podSelector = podSpecOf(a.object).nodeSelector ?? {};
      if (labelsConflict(nsSelector, podSelector)) throw conflictError(a, a.object);
      const merged = mergeLabels(nsSelector, podSelector);
      if (Object.keys(merged).length === Object.keys(podSelector).length) {
        // Nothing added (the namespace's labels were all in the pod's already).
        check(a, a.object, nsSelector);
        return undefined;
      }
      const pod = clonePod(a.object);
      pod.spec.nodeSelector = merged;
      check(a, pod, nsSelector);
      return pod;
    },
    async validate(a) {
      if (isNotPod(a) || a.object === undefined) return;
      check(a, a.object, await namespaceSelector(a.namespace));
    },
  };
};
