/**
 * Fields an endpoint resets, which its writers therefore never own (the
 * real server's per-strategy "reset fields"): the main resource of a kind
 * with a status subresource resets `status`; `/status` keeps everything but
 * the status and the metadata a status writer may change; `/scale` changes
 * nothing but `spec.replicas`. Mirrors the strategies' prepareForUpdate.
 */

import type { KubeObject } from '../api/meta';
import { FieldSet } from './field-set';
import { fieldPE } from './path';

/** Metadata a `/status` write cannot change (the strategy restores them). */
const statusKeepsMetadata = [
  'labels',
  'annotations',
  'finalizers',
  'ownerReferences',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
];

function topLevelKeys(
  rootProperties: readonly string[],
  objects: readonly (KubeObject | undefined)[],
): Set<string> {
  const keys = new Set(rootProperties);
  for (const o of objects) for (const k of Object.keys(o ?? {})) keys.add(k);
  return keys;
}

export function resetFields(opts: {
  subresource: string;
  statusSubresource: boolean;
  rootProperties: readonly string[];
  objects: readonly (KubeObject | undefined)[];
}): FieldSet | undefined {
  const { subresource, statusSubresource } = opts;
  if (subresource === '') return statusSubresource ? FieldSet.of([fieldPE('status')]) : undefined;
  const set = new FieldSet();
  if (subresource === 'status') {
    for (const k of topLevelKeys(opts.rootProperties, opts.objects))
      if (!['apiVersion', 'kind', 'metadata', 'status'].includes(k)) set.insert([fieldPE(k)]);
    for (const k of statusKeepsMetadata) set.insert([fieldPE('metadata'), fieldPE(k)]);
    return set;
  }
  if (subresource === 'scale') {
    for (const k of topLevelKeys(opts.rootProperties, opts.objects))
      if (!['apiVersion', 'kind', 'spec'].includes(k)) set.insert([fieldPE(k)]);
    const specKeys = new Set<string>();
    for (const o of opts.objects)
      for (const k of Object.keys((o?.spec as Record<string, unknown> | undefined) ?? {})) specKeys.add(k);
    for (const k of specKeys) if (k !== 'replicas') set.insert([fieldPE('spec'), fieldPE(k)]);
    return set;
  }
  return undefined;
}
