/**
 * The write options that concern field ownership, read and checked as the
 * real server checks Create/Update/PatchOptions: `fieldManager` (at most
 * 128 bytes, printable, required for apply; else the User-Agent prefix)
 * and `force` (apply only). Failures are 422 Invalid on the options kind.
 */

import type { FieldError } from '../machinery/field-errors';
import { fieldError } from '../machinery/field-errors';
import { invalid } from '../machinery/errors';
import { queryBool } from '../machinery/query-bool';
import { managerOrUserAgent, validateFieldManager } from '../fieldmanager/manager-name';
import type { RequestContext } from './context';
import type { ServerContext } from './server-context';

export interface OwnershipOptions {
  /** The manager the write is recorded under. */
  manager: string;
  force: boolean;
}

export function ownershipOptions(
  server: ServerContext,
  ctx: RequestContext,
  optionsKind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions',
  apply = false,
): OwnershipOptions {
  const fieldManager = ctx.query.get('fieldManager') ?? '';
  const force = queryBool(ctx.query, 'force');
  const errors: FieldError[] = [];
  if (optionsKind === 'PatchOptions') {
    if (!apply && force !== undefined)
      errors.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
    if (apply && fieldManager === '')
      errors.push(fieldError.required('fieldManager', 'is required for apply patch'));
  }
  errors.push(...validateFieldManager(fieldManager));
  if (errors.length > 0) throw invalid({ group: server.profile.metaGroup, kind: optionsKind }, '', errors);
  return {
    manager: managerOrUserAgent(fieldManager, ctx.request.headers.get('user-agent')),
    force: force === true,
  };
}
