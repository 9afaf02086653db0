/**
 * Canonical form of stored objects, as the real server's encoder writes
 * them: `kind`, `apiVersion`, `metadata` first, metadata fields in
 * ObjectMeta's order, and empty metadata lists and maps left out (every
 * ObjectMeta field is omitempty, so an emptied `finalizers` or `labels`
 * disappears rather than staying `[]`).
 */

import type { KubeObject, ObjectMeta } from '../api/meta';

export const metaOrder: (keyof ObjectMeta)[] = [
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

/** `metaOrder` as a set, made once (every write canonicalizes its object). */
const knownMeta: ReadonlySet<string> = new Set<string>(metaOrder);

export function canonicalOrder(obj: KubeObject): KubeObject {
  const out: KubeObject = {};
  if (obj.kind !== undefined) out.kind = obj.kind;
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  if (obj.metadata !== undefined) {
    const m: Record<string, unknown> = {};
    const src = obj.metadata as Record<string, unknown>;
    for (const k of metaOrder) if (src[k] !== undefined && !isEmptyCollection(src[k])) m[k] = src[k];
    for (const k of Object.keys(src)) if (!knownMeta.has(k) && src[k] !== undefined) m[k] = src[k];
    out.metadata = m as ObjectMeta;
  }
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}
