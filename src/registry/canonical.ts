/**
 * Canonical field order of stored objects, as the real server's encoder
 * writes them: `kind`, `apiVersion`, `metadata` first, and metadata fields
 * in ObjectMeta's order. Clients do not care; people reading YAML do.
 */

import type { KubeObject, ObjectMeta } from '../api/meta';

const metaOrder: (keyof ObjectMeta)[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

export function canonicalOrder(obj: KubeObject): KubeObject {
  const out: KubeObject = {};
  if (obj.kind !== undefined) out.kind = obj.kind;
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  if (obj.metadata !== undefined) {
    const m: Record<string, unknown> = {};
    const src = obj.metadata as Record<string, unknown>;
    for (const k of metaOrder) if (src[k] !== undefined) m[k] = src[k];
    for (const k of Object.keys(src)) if (!(k in m) && src[k] !== undefined) m[k] = src[k];
    out.metadata = m as ObjectMeta;
  }
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}
