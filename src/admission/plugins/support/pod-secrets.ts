/**
 * Which Secrets a pod names, as the real `VisitPodSecretNames` walks them
 * over every container: image pull secrets, environment (`secretKeyRef`,
 * `envFrom.secretRef`) and the volume sources that take a secret (secret,
 * projected secret, and the plugins' `secretRef`s). The ServiceAccount
 * plugin uses it to keep secrets away from mirror pods.
 */

import type { PodSpecShape } from './pod-shape';

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(record).filter((v): v is Json => v !== undefined) : [];
}

function nameOf(value: unknown, field = 'name'): string {
  const v = record(value)?.[field];
  return typeof v === 'string' ? v : '';
}

/** The secret a container's env var reads through `valueFrom.secretKeyRef`, if any. */
export function envSecretName(env: Json): string | undefined {
  const ref = record(record(env['valueFrom'])?.['secretKeyRef']);
  return ref === undefined ? undefined : nameOf(ref);
}

/** The secret an `envFrom` entry reads through `secretRef`, if any. */
export function envFromSecretName(envFrom: Json): string | undefined {
  const ref = record(envFrom['secretRef']);
  return ref === undefined ? undefined : nameOf(ref);
}

/** Volume sources whose `secretRef` names a secret. */
const secretRefSources = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

/** Every secret name the pod references, in the real walk's order. */
export function podSecretNames(spec: PodSpecShape): string[] {
  const names: string[] = [];
  for (const ref of list(spec['imagePullSecrets'])) names.push(nameOf(ref));
  for (const field of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    for (const c of list(spec[field])) {
      for (const env of list(c['env'])) {
        const name = envSecretName(env);
        if (name !== undefined) names.push(name);
      }
      for (const from of list(c['envFrom'])) {
        const name = envFromSecretName(from);
        if (name !== undefined) names.push(name);
      }
    }
  }
  for (const volume of list(spec['volumes'])) {
    const secret = record(volume['secret']);
    if (secret !== undefined) names.push(nameOf(secret, 'secretName'));
    for (const source of list(record(volume['projected'])?.['sources'])) {
      const projected = record(source['secret']);
      if (projected !== undefined) names.push(nameOf(projected));
    }
    const azure = record(volume['azureFile']);
    if (azure !== undefined) names.push(nameOf(azure, 'secretName'));
    for (const kind of secretRefSources) {
      const ref = record(record(volume[kind])?.['secretRef']);
      if (ref !== undefined) names.push(nameOf(ref));
    }
    const csiRef = record(record(volume['csi'])?.['nodePublishSecretRef']);
    if (csiRef !== undefined) names.push(nameOf(csiRef));
  }
  return names;
}
