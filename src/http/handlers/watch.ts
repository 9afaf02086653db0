/**
 * watch (GET on a collection with `watch=1`, or the legacy `/watch/` paths):
 * a chunked stream of `{type, object}` lines. Without a resourceVersion (or
 * with 0) it first sends the current state as synthetic ADDED events ("Get
 * State and Start at Most Recent/Any"); with one it sends every change after
 * it ("Start at Exact"), or a 410 ERROR event when that history is gone.
 * Streaming lists (`sendInitialEvents`, WatchList gate) end the initial
 * events with a BOOKMARK carrying the initial-events-end annotation.
 * Bookmarks, `timeoutSeconds`, client aborts and slow consumers are handled
 * by the stream.
 */

import { invalid, badRequest } from '../../machinery/errors';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import type { RestStorage, Watcher } from '../../registry/rest/capabilities';
import type { RequestContext } from '../context';
import type { ResolvedRequest } from '../dispatch';
import type { ServerContext } from '../server-context';
import { parseResourceVersion } from '../options';
import { selectionFromQuery } from '../selectors';
import { queryFlag } from '../../machinery/query-bool';
import { openWatchStream } from '../watch/stream';
import { requestScope } from '../scope';

function validateWatchOptions(query: URLSearchParams, watchListEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const match = query.get('resourceVersionMatch') ?? '';
  const sendInitial = query.has('sendInitialEvents');
  if (watchListEnabled && sendInitial) {
    if (match !== 'NotOlderThan')
      errs.push(
        fieldError.forbidden(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        ),
      );
    return errs;
  }
  if (match !== '')
    errs.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch'));
  if (sendInitial)
    errs.push(
      fieldError.forbidden(
        'sendInitialEvents',
        'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
      ),
    );
  return errs;
}

/** Default watch timeout: a random 30–60 minutes, as the real server spreads reconnects. */
function defaultTimeoutSeconds(): number {
  return 1800 + Math.floor(Math.random() * 1800);
}

export async function handleWatch(
  server: ServerContext,
  ctx: RequestContext,
  req: ResolvedRequest,
  storage: RestStorage & Watcher,
): Promise<Response> {
  const q = ctx.query;
  const watchList = server.featureGates.WatchList === true;
  const errs = validateWatchOptions(q, watchList);
  if (errs.length > 0) throw invalid({ group: server.profile.metaGroup, kind: 'ListOptions' }, '', errs);
  const rvText = q.get('resourceVersion') ?? '';
  const timeoutText = q.get('timeoutSeconds');
  let timeoutSeconds = defaultTimeoutSeconds();
  if (timeoutText !== null && timeoutText !== '') {
    if (!/^[0-9]+$/.test(timeoutText)) throw badRequest(`invalid timeoutSeconds: ${timeoutText}`);
    const n = Number(timeoutText);
    if (n > 0) timeoutSeconds = n;
  }
  const selection = selectionFromQuery(server.profile, req.rt, q);
  const sendInitialEvents =
    watchList && q.has('sendInitialEvents') ? queryFlag(q, 'sendInitialEvents') : undefined;
  const startRevision = rvText === '' || rvText === '0' ? undefined : parseResourceVersion(rvText);
  const name = req.info.name;

  return openWatchStream(server, ctx, storage, requestScope(ctx, req, storage, 'watch'), {
    rt: req.rt,
    request: {
      ...(name !== '' ? { name } : {}),
      ...(selection.predicate !== undefined ? { predicate: selection.predicate } : {}),
      // Get State first unless a resourceVersion was given; a streaming list decides explicitly.
      initialEvents: sendInitialEvents ?? startRevision === undefined,
      ...(startRevision !== undefined ? { startRevision } : {}),
    },
    initialEventsEndBookmark: sendInitialEvents === true,
    allowBookmarks: queryFlag(q, 'allowWatchBookmarks'),
    timeoutMs: timeoutSeconds * 1000,
  });
}
