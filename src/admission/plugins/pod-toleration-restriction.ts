/**
 * PodTolerationRestriction: a namespace's default tolerations (annotation
 * `scheduler.alpha.<labelDomain>/defaultTolerations`, a JSON list; else the
 * configuration's `default`) are merged into its new pods, and every pod
 * that is not BestEffort also tolerates the memory-pressure `NoSchedule`
 * taint. The result must then fit the namespace whitelist (annotation
 * `.../tolerationsWhitelist`; else the configuration's `whitelist`). As in
 * the real plugin, a whitelist conflict or an unreadable annotation is a
 * plain error, which the server answers with 500.
 */

import type { KubeObject } from '../../api/meta';
import { notFound } from '../../machinery/errors';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { plainError } from './support/errors';
import { clonePod, isNotPod, podSpecOf, type PodSpecShape } from './support/pod-shape';
import { mergeTolerations, verifyAgainstWhitelist, type Toleration } from './support/tolerations';

export interface PodTolerationRestrictionConfig {
  default?: Toleration[];
  whitelist?: Toleration[];
}

function tolerationList(v: unknown): Toleration[] | undefined {
  return Array.isArray(v) ? v.filter((t): t is Toleration => t !== null && typeof t === 'object') : undefined;
}

export function parsePodTolerationRestrictionConfig(config: unknown): PodTolerationRestrictionConfig {
  if (config === null || typeof config !== 'object') return {};
  const c = config as { default?: unknown; whitelist?: unknown };
  const out: PodTolerationRestrictionConfig = {};
  const d = tolerationList(c.default);
  const w = tolerationList(c.whitelist);
  if (d !== undefined) out.default = d;
  if (w !== undefined) out.whitelist = w;
  return out;
}

/** A positive quantity (the QoS check ignores zero requests and limits). */
function isPositiveQuantity(q: unknown): boolean {
  if (typeof q === 'number') return q > 0;
  if (typeof q !== 'string') return false;
  const m = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(q.trim());
  return m !== null && Number(m[0]) > 0;
}

/** BestEffort: no container or init container requests or limits cpu or memory. */
export function isBestEffort(spec: PodSpecShape): boolean {
  for (const list of [spec.containers, spec.initContainers]) {
    for (const c of Array.isArray(list) ? list : []) {
      for (const set of [c.resources?.requests, c.resources?.limits]) {
        if (set === undefined || set === null) continue;
        for (const name of ['cpu', 'memory']) if (isPositiveQuantity(set[name])) return false;
      }
    }
  }
  return true;
}

/** The namespace's tolerations under `key`: undefined when unset, [] when set empty. */
function namespaceTolerations(ns: KubeObject, key: string): Toleration[] | undefined {
  const annotations = ns.metadata?.annotations ?? {};
  if (!Object.hasOwn(annotations, key)) return undefined;
  const raw = annotations[key] ?? '';
  if (raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw plainError(e instanceof Error ? e.message : String(e));
  }
  if (parsed === null) return undefined;
  const list = tolerationList(parsed);
  if (list === undefined)
    throw plainError('json: cannot unmarshal object into Go value of type []v1.Toleration');
  return list;
}

export const podTolerationRestriction: AdmissionPluginFactory = (deps) => {
  const config = parsePodTolerationRestrictionConfig(deps.config);
  const defaultsKey = deps.profile.subPrefixed('scheduler.alpha', 'defaultTolerations');
  const whitelistKey = deps.profile.subPrefixed('scheduler.alpha', 'tolerationsWhitelist');
  const memoryPressure: Toleration = {
    key: deps.profile.subPrefixed('node', 'memory-pressure'),
    operator: 'Exists',
    effect: 'NoSchedule',
  };

  async function namespace(name: string): Promise<KubeObject> {
    const ns = await deps.namespaces.get(name);
    if (ns === undefined) throw notFound({ group: '', resource: 'namespaces' }, name);
    return ns;
  }

  async function validate(a: AdmissionAttributes, pod: KubeObject): Promise<void> {
    const tolerations = podSpecOf(pod).tolerations;
    if (!Array.isArray(tolerations) || tolerations.length === 0) return;
    let whitelist = namespaceTolerations(await namespace(a.namespace), whitelistKey);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = config.whitelist ?? [];
      scope = 'cluster';
    }
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist))
      throw plainError(
        `pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`,
      );
  }

  return {
    name: 'PodTolerationRestriction',
    operations: ['CREATE', 'UPDATE'],
    async admit(a) {
      if (isNotPod(a) || a.object === undefined) return undefined;
      const spec = podSpecOf(a.object);
      let extra: Toleration[] = [];
      if (a.operation === 'CREATE') {
        extra = namespaceTolerations(await namespace(a.namespace), defaultsKey) ?? config.default ?? [];
      }
      if (!isBestEffort(spec)) extra = [...extra, memoryPressure];
      let result: KubeObject = a.object;
      if (extra.length > 0) {
        const pod = clonePod(a.object);
        pod.spec.tolerations = mergeTolerations(
          Array.isArray(spec.tolerations) ? spec.tolerations : [],
          extra,
        );
        result = pod;
      }
      await validate(a, result);
      return result === a.object ? undefined : result;
    },
    async validate(a) {
      if (isNotPod(a) || a.object === undefined) return;
      await validate(a, a.object);
    },
  };
};
