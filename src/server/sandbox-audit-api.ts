/**
 * The live audit view of the sandbox API: `GET /sandbox/v1/audit` answers
 * the kept audit events (oldest first, `?limit=` the newest n), and
 * `?watch=true` streams each new event as one JSON line, so the browser —
 * which has no log file — can show what the audit policy records.
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

export function handleAuditApi(log: AuditLog, ctx: RequestContext, enabled: boolean): Response {
  if (ctx.request.method.toUpperCase() !== 'GET') throw methodNotAllowed();
  const limitText = ctx.query.get('limit');
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw badRequest(`limit must be a non-negative integer, got "${limitText ?? ''}"`);
  if (ctx.query.get('watch') !== 'true' && ctx.query.get('watch') !== '1') {
    const items = log.list();
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
