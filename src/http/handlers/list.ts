/**
 * list: a collection, one namespace or all, in key order, with the
 * resourceVersion semantics of the list table (Most Recent, Any, Not older
 * than, Exact, Continue Token), pages (`limit`, signed `continue` tokens,
 * `remainingItemCount` unless a selector is used) and label/field
 * selectors. Every page of one list is one snapshot.
 */

import type { ListMeta } from '../../api/meta';
import { badRequest, invalid } from '../../machinery/errors';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import type { Lister, RestStorage } from '../../registry/rest/capabilities';
import { ContinueExpiredError } from '../../registry/generic/revisions';
import { collectionPrefix } from '../../registry/keys';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { respondList } from '../encode';
import { parseResourceVersion } from '../options';
import { selectionFromQuery } from '../selectors';
import { respondError } from '../respond';
import { requestScope } from '../scope';

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

export async function handleList(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Lister,
): Promise<Response> {
  const q = ctx.query;
  const errs = validateListOptions(q, false);
  if (errs.length > 0) throw invalid({ group: server.profile.metaGroup, kind: 'ListOptions' }, '', errs);
  const rvText = q.get('resourceVersion') ?? '';
  // APIListChunking off: the store neither pages nor reads continue tokens (the real etcd3 store's pagingEnabled).
  const chunking = server.featureGates.APIListChunking !== false;
  const cont = chunking ? (q.get('continue') ?? '') : '';
  const requestedLimit = parseLimit(q);
  const limit = chunking ? requestedLimit : 0;
  const selection = selectionFromQuery(server.profile, req.rt, q);
  // Continue tokens are bound to the collection they page through.
  const tokenScope = collectionPrefix(req.rt.storage, req.namespace);

  let continueFrom;
  if (cont !== '') {
    if (rvText !== '' && rvText !== '0')
      throw badRequest('specifying resource version is not allowed when using continue');
    continueFrom = await server.continueTokens.decode(cont, tokenScope);
  } else if (rvText !== '' && rvText !== '0') parseResourceVersion(rvText);

  let result;
  try {
    result = await storage.list(requestScope(ctx, req, storage, 'list'), {
      resourceVersion: rvText,
      resourceVersionMatch: q.get('resourceVersionMatch') ?? '',
      limit,
      ...(continueFrom !== undefined ? { continueFrom } : {}),
      ...(selection.predicate !== undefined ? { predicate: selection.predicate } : {}),
      ...(selection.name !== undefined ? { name: selection.name } : {}),
    });
  } catch (e) {
    if (!(e instanceof ContinueExpiredError)) throw e;
    // Expired: hand back a token that continues from the same key at the current revision.
    e.status.metadata = {
      continue: await server.continueTokens.encode(
        { revision: e.currentRevision, after: e.after },
        tokenScope,
      ),
    };
    return respondError(ctx, server.profile, e);
  }

  const metadata: ListMeta = { resourceVersion: String(result.revision) };
  if (result.continueAfter !== undefined && limit > 0) {
    metadata.continue = await server.continueTokens.encode(
      { revision: result.revision, after: result.continueAfter },
      tokenScope,
    );
    if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  } else if (req.rt.custom) {
    // A custom resource list is an unstructured map whose continue the store always sets, even to "";
    // ListMeta's continue is omitempty, so a built-in list's last (or only) page has none.
    metadata.continue = '';
  }
  return respondList(server, ctx, req.rt, result.items, metadata);
}
