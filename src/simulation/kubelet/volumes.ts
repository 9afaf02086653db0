/**
 * A pod's volumes as the kubelet mounts them, turned into files: ConfigMap
 * and Secret volumes (all keys or the listed items; Secrets decoded),
 * downward API files, projected volumes (each source in turn, a
 * service-account token requested for the pod), and writable empty
 * directories for emptyDir and the volumes the sandbox does not back with
 * real storage (claims, host paths). A missing ConfigMap or Secret that is
 * not optional fails the mount with the kubelet's message
 * (`MountVolume.SetUp failed for volume "config" : configmap "app" not
 * found`), and the pod waits in ContainerCreating.
 */

import type { Pod, Volume, VolumeProjection } from '../../api/pod';
import type { ObjectSource } from './object-source';
import { podFieldValue, resourceFieldValue } from './downward-api';

export interface VolumeContent {
  /** Files by their path inside the volume. */
  files: Map<string, string>;
  readOnly: boolean;
}

export class MountError extends Error {}

function decode(base64: string): string {
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}

/** The key → text of a ConfigMap (data and binaryData) or a Secret (data decoded, stringData). */
function entriesOf(object: Record<string, unknown>, secret: boolean): Map<string, string> {
  const out = new Map<string, string>();
  const data = (object['data'] ?? {}) as Record<string, string>;
  for (const [k, v] of Object.entries(data)) out.set(k, secret ? decode(v) : v);
  if (!secret)
    for (const [k, v] of Object.entries((object['binaryData'] ?? {}) as Record<string, string>))
      out.set(k, decode(v));
  return out;
}

async function keyedFiles(
  source: ObjectSource,
  kind: 'configmaps' | 'secrets',
  namespace: string,
  name: string,
  items: { key: string; path: string }[] | undefined,
  optional: boolean | undefined,
  volumeName: string,
  into: Map<string, string>,
): Promise<void> {
  const object = await source.get(kind, namespace, name);
  const noun = kind === 'configmaps' ? 'configmap' : 'secret';
  if (object === undefined) {
    if (optional === true) return;
    throw new MountError(`MountVolume.SetUp failed for volume "${volumeName}" : ${noun} "${name}" not found`);
  }
  const entries = entriesOf(object, kind === 'secrets');
  if (items === undefined || items.length === 0) {
    for (const [k, v] of entries) into.set(k, v);
    return;
  }
  for (const item of items) {
    const v = entries.get(item.key);
    if (v === undefined) {
      if (optional === true) continue;
      throw new MountError(
        `MountVolume.SetUp failed for volume "${volumeName}" : configmap references non-existent config key: ${item.key}`,
      );
    }
    into.set(item.path, v);
  }
}

function downwardFiles(
  pod: Pod,
  items: {
    path: string;
    fieldRef?: { fieldPath?: string };
    resourceFieldRef?: { containerName?: string; resource?: string; divisor?: string | number };
  }[],
  allocatable: Record<string, string>,
  into: Map<string, string>,
): void {
  for (const item of items) {
    if (item.fieldRef !== undefined)
      into.set(item.path, podFieldValue(pod, item.fieldRef.fieldPath ?? '') ?? '');
    else if (item.resourceFieldRef !== undefined) {
      const ref = item.resourceFieldRef;
      const container = pod.spec?.containers.find((c) => c.name === ref.containerName);
      into.set(item.path, resourceFieldValue(container, ref.resource ?? '', ref.divisor, allocatable) ?? '');
    }
  }
}

async function projected(
  pod: Pod,
  sources: VolumeProjection[],
  source: ObjectSource,
  allocatable: Record<string, string>,
  volumeName: string,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const namespace = pod.metadata?.namespace ?? '';
  for (const s of sources) {
    if (s.configMap !== undefined)
      await keyedFiles(
        source,
        'configmaps',
        namespace,
        s.configMap.name ?? '',
        s.configMap.items,
        s.configMap.optional,
        volumeName,
        files,
      );
    if (s.secret !== undefined)
      await keyedFiles(
        source,
        'secrets',
        namespace,
        s.secret.name ?? '',
        s.secret.items,
        s.secret.optional,
        volumeName,
        files,
      );
    if (s.downwardAPI !== undefined) downwardFiles(pod, s.downwardAPI.items ?? [], allocatable, files);
    if (s.serviceAccountToken !== undefined) {
      const t = s.serviceAccountToken;
      try {
        files.set(
          t.path,
          await source.token({
            namespace,
            serviceAccount: pod.spec?.serviceAccountName || 'default',
            podName: pod.metadata?.name ?? '',
            podUID: pod.metadata?.uid ?? '',
            ...(t.audience !== undefined ? { audience: t.audience } : {}),
            ...(t.expirationSeconds !== undefined ? { expirationSeconds: t.expirationSeconds } : {}),
          }),
        );
      } catch (e) {
        throw new MountError(
          `MountVolume.SetUp failed for volume "${volumeName}" : failed to fetch token: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  }
  return files;
}

/** Every volume of the pod with its files; throws `MountError` for the first that cannot be mounted. */
export async function resolveVolumes(
  pod: Pod,
  source: ObjectSource,
  allocatable: Record<string, string>,
): Promise<Map<string, VolumeContent>> {
  const out = new Map<string, VolumeContent>();
  const namespace = pod.metadata?.namespace ?? '';
  for (const v of pod.spec?.volumes ?? [])
    out.set(v.name, await resolveVolume(pod, v, namespace, source, allocatable));
  return out;
}

async function resolveVolume(
  pod: Pod,
  v: Volume,
  namespace: string,
  source: ObjectSource,
  allocatable: Record<string, string>,
): Promise<VolumeContent> {
  const files = new Map<string, string>();
  if (v.configMap !== undefined) {
    await keyedFiles(
      source,
      'configmaps',
      namespace,
      v.configMap.name ?? '',
      v.configMap.items,
      v.configMap.optional,
      v.name,
      files,
    );
    return { files, readOnly: true };
  }
  if (v.secret !== undefined) {
    await keyedFiles(
      source,
      'secrets',
      namespace,
      v.secret.secretName ?? '',
      v.secret.items,
      v.secret.optional,
      v.name,
      files,
    );
    return { files, readOnly: true };
  }
  if (v.downwardAPI !== undefined) {
    downwardFiles(pod, v.downwardAPI.items ?? [], allocatable, files);
    return { files, readOnly: true };
  }
  if (v.projected !== undefined)
    return {
      files: await projected(pod, v.projected.sources ?? [], source, allocatable, v.name),
      readOnly: true,
    };
  return { files, readOnly: false };
}
