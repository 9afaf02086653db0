/**
 * Apply's failures as the real server answers them: a conflict is 409 with
 * the conflicting fields and their owners, a failure of the field manager
 * without a Status of its own 500.
 */

import { StatusError } from '../machinery/errors';
import { ApplyConflictError, applyConflictStatus } from './conflict';
import { FieldManagerError } from './field-manager';

export function applyFailure(e: unknown): unknown {
  if (e instanceof ApplyConflictError) return applyConflictStatus(e);
  if (e instanceof FieldManagerError) return new StatusError(500, undefined, e.message);
  return e;
}
