/**
 * RuntimeClass: a new pod naming a RuntimeClass (`node.<groupSuffix>`) gets
 * the class's pod overhead in `spec.overhead` (refused when the pod already
 * states a different one) and the class's scheduling constraints: its node
 * selector merged into the pod's (a key with another value is refused) and
 * its tolerations merged in. A class that does not exist refuses the pod.
 * Its validating half refuses a pod whose overhead does not match its
 * class's, or that states an overhead without a class defining one.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionAttributes, AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { clonePod, isNotPod, podSpecOf } from './support/pod-shape';
import { mergeTolerations, type Toleration } from './support/tolerations';

interface RuntimeClassShape extends KubeObject {
  overhead?: { podFixed?: Record<string, unknown> | null } | null;
  scheduling?: { nodeSelector?: Record<string, string> | null; tolerations?: Toleration[] | null } | null;
}

const suffixes: Readonly<Record<string, number>> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A quantity's value, so `1` and `1000m` compare equal as the real semantic equality does. */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === 'number') return q;
  if (typeof q !== 'string') return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|([numkMGTPE]|[KMGTPE]i)?)$/.exec(q.trim());
  if (m === null) return undefined;
  const base = Number(m[1]);
  if (m[2] !== undefined) return base * 10 ** Number(m[2].slice(1));
  return base * (suffixes[m[3] ?? ''] ?? 1);
}

/** Semantic equality of two resource lists (absent and empty alike, quantities by value). */
export function resourceListsEqual(
  a: Record<string, unknown> | null | undefined,
  b: Record<string, unknown> | null | undefined,
): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  return ka.every((k) => {
    const va = quantityValue((a ?? {})[k]);
    const vb = quantityValue((b ?? {})[k]);
    return Object.hasOwn(b ?? {}, k) && va !== undefined && va === vb;
  });
}

export const runtimeClass: AdmissionPluginFactory = (deps) => {
  const group = deps.profile.suffixed('node');
  const lister = deps.lister(group, 'runtimeclasses');

  /** The pod's class: undefined when it names none; refused when it names a missing one. */
  async function classOf(a: AdmissionAttributes): Promise<RuntimeClassShape | undefined> {
    const name = podSpecOf(a.object).runtimeClassName;
    if (typeof name !== 'string') return undefined;
    await deps.listersSynced();
    // A lagging cache is not a missing class: look it up live before refusing.
    const found =
      (lister.get('', name) as RuntimeClassShape | undefined) ??
      (await deps.client.get(group, 'runtimeclasses', '', name).catch(() => undefined));
    if (found === undefined) throw admissionForbidden(a, `pod rejected: RuntimeClass "${name}" not found`);
    return found;
  }

  const mismatch = (a: AdmissionAttributes) =>
    admissionForbidden(a, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");

  return {
    name: 'RuntimeClass',
    operations: ['CREATE'],
    async admit(a) {
      if (isNotPod(a) || a.object === undefined) return undefined;
      const rc = await classOf(a);
      if (rc === undefined) return undefined;
      const pod = clonePod(a.object);
      let changed = false;
      const podFixed = rc.overhead?.podFixed;
      if (rc.overhead !== undefined && rc.overhead !== null) {
        const own = pod.spec.overhead;
        if (
          own !== undefined &&
          own !== null &&
          Object.keys(own).length > 0 &&
          !resourceListsEqual(podFixed, own)
        )
          throw mismatch(a);
        if (podFixed !== undefined && podFixed !== null) pod.spec.overhead = structuredClone(podFixed);
        else delete pod.spec.overhead;
        changed = true;
      }
      const scheduling = rc.scheduling;
      if (scheduling !== undefined && scheduling !== null) {
        const classSelector = scheduling.nodeSelector ?? {};
        const podSelector = pod.spec.nodeSelector;
        if (podSelector === undefined || podSelector === null) {
          if (scheduling.nodeSelector !== undefined && scheduling.nodeSelector !== null)
            pod.spec.nodeSelector = { ...classSelector };
        } else {
          for (const [key, value] of Object.entries(classSelector)) {
            const podValue = podSelector[key];
            if (podValue !== undefined && podValue !== value)
              throw admissionForbidden(
                a,
                `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${podValue}`,
              );
            podSelector[key] = value;
          }
        }
        const merged = mergeTolerations(
          Array.isArray(pod.spec.tolerations) ? pod.spec.tolerations : [],
          Array.isArray(scheduling.tolerations) ? scheduling.tolerations : [],
        );
        if (merged.length > 0) pod.spec.tolerations = merged;
        changed = true;
      }
      return changed ? pod : undefined;
    },
    async validate(a) {
      if (isNotPod(a) || a.object === undefined) return;
      const rc = await classOf(a);
      const own = podSpecOf(a.object).overhead;
      if (rc?.overhead !== undefined && rc.overhead !== null) {
        if (!resourceListsEqual(rc.overhead.podFixed, own)) throw mismatch(a);
      } else if (own !== undefined && own !== null) {
        throw admissionForbidden(
          a,
          'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
        );
      }
    },
  };
};
