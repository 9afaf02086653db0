/**
 * How an export becomes etcd writes that land on the exported revisions.
 * etcd cannot write at a chosen revision, but its revisions are consecutive
 * while nobody else writes: the objects as they stood at the export's
 * compacted revision go first, in transactions of a batch each, and then
 * every change of the history is replayed as one write, so that the change
 * recorded at revision r is written exactly r − compacted writes after the
 * last batch. The base row is written at `baseRevision`, the store revision
 * the batches must follow. Objects older than the compacted revision carry
 * their batch's revision, not their original one (no history reads them).
 */

import type { ExportedState } from '../../../storage/export-format';
import { revisionOf } from '../../../storage/keys';
import type { StoredObject } from '../../../storage/types';

export interface ImportPlan {
  baseRevision: number;
  batches: StoredObject[][];
}

export function planImport(state: ExportedState, batchSize: number): ImportPlan {
  // Undo the history, newest first, to get the objects at the compacted revision.
  const atCompacted = new Map(state.objects.map((stored) => [stored.key, stored]));
  for (let i = state.changes.length - 1; i >= 0; i--) {
    const change = state.changes[i];
    if (!change) continue;
    if (change.type === 'ADDED' || !change.previous) atCompacted.delete(change.key);
    else
      atCompacted.set(change.key, {
        key: change.key,
        revision: revisionOf(change.previous),
        object: change.previous,
      });
  }
  const rows = [...atCompacted.values()];
  const batches: StoredObject[][] = [];
  for (let i = 0; i < rows.length; i += batchSize) batches.push(rows.slice(i, i + batchSize));
  const compacted = state.changes.length > 0 ? (state.changes[0]?.revision ?? 1) - 1 : state.revision;
  return { baseRevision: compacted - batches.length, batches };
}
