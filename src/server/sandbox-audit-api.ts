/**
 * The live audit view of the sandbox API: `GET /sandbox/v1/audit` answers
 * the kept audit events (oldest first, `?limit=` the newest n), and
 * `?watch=true` streams each new event as one JSON line, so the browser —
 * which has no log file — can show what the audit policy records.
 * `?components=hide` leaves out the requests of the cluster's own
 * components (nodes, the scheduler, the controllers' service accounts, the
 * API server's loopback): with simulated nodes they are most of the log, and
 * a learner looks for their own requests among them.
 */

import type { AuditEvent } from '../api/audit';
import type { AuditLog } from '../audit/log';
import type { RequestContext } from '../http/context';
import { respondValue } from '../http/respond';
import { badRequest, methodNotAllowed } from '../machinery/errors';

export const auditPath = '/sandbox/v1/audit';

export function isAuditApiPath(path: string): boolean {
  return path === auditPath;
}

/** Whether `username` is one of the cluster's own components, as the real components authenticate. */
export function isComponentUser(username: string, systemNamespace: string): boolean {
  return (
    username.startsWith('system:node:') ||
    username.startsWith(`system:serviceaccount:${systemNamespace}:`) ||
    /^system:[a-z]+-(scheduler|controller-manager|proxy)$/.test(username) ||
    username === 'system:apiserver'
  );
}

export function handleAuditApi(
  log: AuditLog,
  ctx: RequestContext,
  enabled: boolean,
  systemNamespace: string,
): Response {
  if (ctx.request.method.toUpperCase() !== 'GET') throw methodNotAllowed();
  const limitText = ctx.query.get('limit');
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw badRequest(`limit must be a non-negative integer, got "${limitText ?? ''}"`);
  const components = ctx.query.get('components');
  if (components !== null && components !== 'hide' && components !== 'show')
    throw badRequest(`components must be "hide" or "show", got "${components}"`);
  if (ctx.query.get('watch') !== 'true' && ctx.query.get('watch') !== '1') {
    const all = log.list();
    const items =
      components === 'hide' ? all.filter((e) => !isComponentUser(e.user.username, systemNamespace)) : all;
    return respondValue(ctx, 200, {
      enabled,
      items: limit === undefined ? items : items.slice(Math.max(0, items.length - limit)),
    });
  }
  const encoder = new TextEncoder();
  let unsubscribe: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      unsubscribe = log.subscribe((event: AuditEvent) => {
        if (components === 'hide' && isComponentUser(event.user.username, systemNamespace)) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          unsubscribe?.();
        }
      });
      ctx.signal.addEventListener('abort', () => {
        unsubscribe?.();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
    cancel() {
      unsubscribe?.();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Audit-Id': ctx.auditId,
    },
  });
}
