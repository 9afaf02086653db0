/**
 * The part of a write request every handler fills the same way: the verb,
 * the resource, the object the URL names, dry run and the user. Handlers
 * add what is particular to them (the desired object, ownership, delete
 * options) and override the addressed object where it differs (a `/scale`
 * write targets the main resource, deletecollection each listed object).
 */

import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { WriteRequest, WriteVerb } from '../server-context';

type Common = Pick<
  WriteRequest,
  'verb' | 'rt' | 'subresource' | 'namespace' | 'name' | 'dryRun' | 'user' | 'createWhenMissing'
>;

export function writeFor(
  ctx: RequestContext,
  req: ResolvedRequest,
  verb: WriteVerb,
  dryRun: boolean,
  target: Partial<Pick<WriteRequest, 'subresource' | 'namespace' | 'name'>> = {},
): Common {
  return {
    verb,
    rt: req.rt,
    subresource: target.subresource ?? req.info.subresource,
    namespace: target.namespace ?? req.namespace,
    name: target.name ?? req.info.name,
    dryRun,
    user: ctx.user,
    createWhenMissing: false,
  };
}
