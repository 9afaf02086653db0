/**
 * Moving an object from client-side to server-side apply, as kubectl
 * v1.27 does after a successful `apply --server-side` (csaupgrade): the
 * managers that own the last-applied annotation through Update operations
 * are merged into the server-side manager's Apply entry (their field sets
 * united), sent as a JSON patch of managedFields guarded by the
 * resourceVersion, after which kubectl applies again so that fields only
 * the old configuration named — the annotation itself among them — are
 * released.
 */

import type { KubeObject, ManagedFieldsEntry } from '../../../api/meta';
import { lastAppliedAnnotation } from './last-applied';
import { deepEqual } from './three-way';

type Fields = Record<string, unknown>;

function ownsLastApplied(entry: ManagedFieldsEntry): boolean {
  const f = entry.fieldsV1 as Fields | undefined;
  const meta = f?.['f:metadata'] as Fields | undefined;
  const annotations = meta?.['f:annotations'] as Fields | undefined;
  return annotations !== undefined && `f:${lastAppliedAnnotation}` in annotations;
}

function union(a: Fields | undefined, b: Fields | undefined): Fields {
  const out: Fields = { ...(a ?? {}) };
  for (const [k, v] of Object.entries(b ?? {})) {
    const existing = out[k];
    out[k] =
      typeof existing === 'object' && existing !== null && typeof v === 'object' && v !== null
        ? union(existing as Fields, v as Fields)
        : v;
  }
  return out;
}

/** The JSON patch that upgrades `object`'s managedFields for `ssaManager`, or undefined when nothing changes. */
export function upgradePatch(object: KubeObject, ssaManager: string): unknown[] | undefined {
  const original = object.metadata?.managedFields ?? [];
  const csaManagers = new Set(
    original.filter((e) => e.operation === 'Update' && ownsLastApplied(e)).map((e) => e.manager ?? ''),
  );
  let fields: ManagedFieldsEntry[] = original.map((e) => ({ ...e }));
  for (const csa of csaManagers) {
    const sub = (e: ManagedFieldsEntry) => e.subresource ?? '';
    let index = fields.findIndex((e) => e.manager === ssaManager && e.operation === 'Apply' && sub(e) === '');
    if (index < 0) {
      index = fields.findIndex((e) => e.manager === csa && e.operation === 'Update' && sub(e) === '');
      if (index < 0) continue;
      fields[index] = { ...(fields[index] as ManagedFieldsEntry), operation: 'Apply', manager: ssaManager };
    }
    const target = fields[index] as ManagedFieldsEntry;
    let merged = target.fieldsV1 as Fields | undefined;
    for (const e of fields)
      if (e.manager === csa && e.operation === 'Update' && sub(e) === '')
        merged = union(merged, e.fieldsV1 as Fields);
    fields[index] = { ...target, fieldsV1: merged as ManagedFieldsEntry['fieldsV1'] };
    fields = fields.filter((e) => !(e.manager === csa && e.operation === 'Update' && sub(e) === ''));
  }
  if (deepEqual(original, fields)) return undefined;
  return [
    { op: 'replace', path: '/metadata/managedFields', value: fields },
    { op: 'replace', path: '/metadata/resourceVersion', value: object.metadata?.resourceVersion ?? '' },
  ];
}
