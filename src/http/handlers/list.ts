/**
 * list: a collection, one namespace or all, in key order, with the
 * resourceVersion semantics of the list table (Most Recent, Any, Not older
 * than, Exact, Continue Token), pages (`limit`, signed `continue` tokens,
 * `remainingItemCount` unless a selector is used) and label/field
 * selectors. Every page of one list is one snapshot.
 */

import type { ListMeta } from '../../api/meta';
import { badRequest, invalid, resourceExpired } from '../../machinery/errors';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import { StatusError } from '../../machinery/errors';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { respondList } from '../encode';
import { parseResourceVersion, waitForRevision } from '../options';
import { selectionFromQuery } from '../selectors';
import { respondError } from '../respond';

/** ValidateListOptions of the real server: these combinations are 422 Invalid on ListOptions. */
export function validateListOptions(query: URLSearchParams, watch: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const match = query.get('resourceVersionMatch') ?? '';
  const rv = query.get('resourceVersion') ?? '';
  const cont = query.get('continue') ?? '';
  if (match !== '') {
    if (watch)
      errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch'));
    if (rv === '')
      errs.push(
        fieldError.forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden unless resourceVersion is provided',
        ),
      );
    if (cont !== '')
      errs.push(
        fieldError.forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden when continue is provided',
        ),
      );
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errs.push(fieldError.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0')
      errs.push(
        fieldError.forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ),
      );
  }
  return errs;
}

export function parseLimit(query: URLSearchParams): number {
  const text = query.get('limit');
  if (text === null || text === '') return 0;
  if (!/^-?[0-9]+$/.test(text)) throw badRequest(`invalid value for limit: ${JSON.stringify(text)}`);
  const n = Number(text);
  return n > 0 ? n : 0;
}

const expiredContinueMessage =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export async function handleList(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
): Promise<Response> {
  const q = ctx.query;
  const errs = validateListOptions(q, false);
  if (errs.length > 0) throw invalid({ group: server.profile.metaGroup, kind: 'ListOptions' }, '', errs);
  const rvText = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const cont = q.get('continue') ?? '';
  const limit = parseLimit(q);
  const selection = selectionFromQuery(server.profile, req.rt, q);
  const prefix = server.store.prefix(req.rt, req.namespace);

  let revision: number | undefined;
  let after: string | undefined;
  if (cont !== '') {
    if (rvText !== '' && rvText !== '0')
      throw badRequest('specifying resource version is not allowed when using continue');
    const pos = await server.continueTokens.decode(cont, prefix);
    if (pos.revision < (await server.storage.compactedRevision())) {
      // Expired: hand back a token that continues from the same key at the current revision.
      const current = await server.storage.currentRevision();
      const err = resourceExpired(expiredContinueMessage);
      err.status.metadata = {
        continue: await server.continueTokens.encode({ revision: current, after: pos.after }, prefix),
      };
      return respondError(ctx, server.profile, err);
    }
    revision = pos.revision;
    after = pos.after;
  } else if (rvText !== '' && rvText !== '0') {
    const requested = parseResourceVersion(rvText);
    await waitForRevision(server.storage, requested, server.tooLargeResourceVersionWaitMs, ctx.signal);
    // Exact when asked, and (for compatibility) when a limit is given without resourceVersionMatch.
    if (match === 'Exact' || (match === '' && limit > 0)) revision = requested;
  }

  let result;
  try {
    result = await server.store.list(req.rt, req.namespace, {
      ...(after !== undefined ? { after } : {}),
      ...(limit > 0 ? { limit } : {}),
      ...(revision !== undefined ? { revision } : {}),
      ...(selection.predicate !== undefined ? { predicate: selection.predicate } : {}),
      countRemaining: limit > 0 && selection.predicate === undefined,
    });
  } catch (e) {
    if (e instanceof StatusError && e.code === 410)
      throw resourceExpired('The resourceVersion for the provided list is too old.');
    throw e;
  }

  const metadata: ListMeta = { resourceVersion: String(result.revision) };
  if (limit > 0) {
    const last = result.items[result.items.length - 1];
    metadata.continue =
      result.more && last !== undefined
        ? await server.continueTokens.encode({ revision: result.revision, after: last.key }, prefix)
        : '';
    if (result.more && result.remaining !== undefined && selection.predicate === undefined)
      metadata.remainingItemCount = result.remaining;
  }
  return respondList(
    server,
    ctx,
    req.rt,
    result.items.map((s) => s.object),
    metadata,
  );
}
