/**
 * Where an object keeps its pod spec (kubectl's UpdatePodSpecForObject): a
 * Pod's own spec, a CronJob's job template's, every other workload's
 * template; anything else "is not a pod or does not have a pod template".
 */

import type { KubeObject } from '../../../api/meta';
import { parseApiVersion } from '../../../client';

type Obj = Record<string, unknown>;

const templated = new Set([
  'Deployment',
  'DaemonSet',
  'ReplicaSet',
  'StatefulSet',
  'ReplicationController',
  'Job',
]);

/** The path from the object to its pod spec, or undefined when it has none. */
export function podSpecPath(object: KubeObject): string[] | undefined {
  const kind = object.kind ?? '';
  if (kind === 'Pod') return ['spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  if (templated.has(kind)) return ['spec', 'template', 'spec'];
  return undefined;
}

/** The error for an object without a pod spec, naming its Go type as kubectl does. */
export function noPodTemplate(object: KubeObject): string {
  const { version } = parseApiVersion(object.apiVersion ?? '');
  return `the object is not a pod or does not have a pod template: *${version}.${object.kind ?? ''}`;
}

/** The pod spec inside a (copied) object, created along the path when missing. */
export function podSpecOf(object: KubeObject, path: string[]): Obj {
  let at = object as Obj;
  for (const key of path) {
    const next = at[key];
    if (typeof next !== 'object' || next === null) at[key] = {};
    at = at[key] as Obj;
  }
  return at;
}

/** Wraps a pod-spec patch in the object's path to its pod spec. */
export function nestPatch(path: string[], patch: Obj): Obj {
  let out: Obj = patch;
  for (const key of [...path].reverse()) out = { [key]: out };
  return out;
}
