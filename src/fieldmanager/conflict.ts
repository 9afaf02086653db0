/**
 * Apply conflicts, explained as the real server explains them: each names
 * the field and the manager that owns it (`conflict with "alice":
 * .spec.replicas`; an updater is named with its apiVersion, a subresource
 * writer with its subresource), and they answer 409 Conflict with one
 * FieldManagerConflict cause per field.
 */

import { StatusError } from '../machinery/errors';
import { goQuote } from '../machinery/go-format';
import { parseIdentifier } from './managed-fields';
import { compareStrings } from './path';

export interface FieldConflict {
  /** The owner's manager name. */
  manager: string;
  /** The conflicting field, e.g. `.spec.replicas` or `.spec.containers[name="web"].image`. */
  field: string;
  /** The owner as the message names it, e.g. `"alice"` or `"kubectl-edit" using apps/v1`. */
  owner: string;
  /** The owner's identity (name, operation, apiVersion of updaters, subresource) as the real server keys it. */
  identity: string;
}

/** How the real server names a manager in conflict messages. */
export function printManager(identity: string): string {
  const e = parseIdentifier(identity);
  let s = goQuote(e.manager ?? '');
  if ((e.subresource ?? '') !== '') s += ` with subresource ${goQuote(e.subresource ?? '')}`;
  if (e.operation === 'Update') s += ` using ${e.apiVersion ?? ''}`;
  return s;
}

export function conflictMessage(conflicts: readonly FieldConflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0] as FieldConflict;
    return `Apply failed with 1 conflict: conflict with ${c.owner}: ${c.field}`;
  }
  const byOwner = new Map<string, FieldConflict[]>();
  for (const c of conflicts) byOwner.set(c.identity, [...(byOwner.get(c.identity) ?? []), c]);
  const lines: string[] = [];
  for (const id of [...byOwner.keys()].sort(compareStrings)) {
    const group = byOwner.get(id) ?? [];
    lines.push(`conflicts with ${group[0]?.owner ?? ''}:`);
    for (const c of group) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

export class ApplyConflictError extends Error {
  constructor(readonly conflicts: readonly FieldConflict[]) {
    super(conflictMessage(conflicts));
    this.name = 'ApplyConflictError';
  }
}

/** The 409 the real server answers: reason Conflict, one FieldManagerConflict cause per field, no object details. */
export function applyConflictStatus(e: ApplyConflictError): StatusError {
  return new StatusError(409, 'Conflict', e.message, {
    causes: e.conflicts.map((c) => ({
      reason: 'FieldManagerConflict',
      message: `conflict with ${c.owner}`,
      field: c.field,
    })),
  });
}
