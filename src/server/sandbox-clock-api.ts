/**
 * The learner's clock, part of the sandbox API:
 * - `GET /sandbox/v1/clock`: the server's time, and how far ahead of the
 *   wall clock it runs (`offsetMs`, and as a Go duration `offset`);
 * - `POST /sandbox/v1/clock` with `{"advance": "90s"}` (a Go duration) or
 *   `{"advanceSeconds": 90}`: moves the clock forward, so that everything
 *   waiting on it comes due — CronJobs, TTLs, token and certificate expiry,
 *   back-offs, graceful deletion, sleeps in simulated containers. The clock
 *   never goes back; the offset is saved with the state, so a restarted
 *   server (the browser's worker after a sleep) keeps the time it had.
 * Authorized like the rest of the sandbox API (see `openSandboxApi`).
 */

import { badRequest, methodNotAllowed } from '../machinery/errors';
import type { SandboxClock } from '../machinery/clock';
import { formatGoDuration, parseGoDuration } from '../machinery/go-duration';
import { isPlainObject } from '../machinery/json';
import type { RequestContext } from '../http/context';
import { readBodyText } from '../http/body';
import { respondValue } from '../http/respond';

export const clockPath = '/sandbox/v1/clock';

/** The storage setting the offset is saved under. */
export const clockSetting = 'sandbox.clock';

/** The most a single request moves the clock (a year): beyond, timers and dates stop meaning much. */
const maxAdvanceMs = 366 * 24 * 3600 * 1000;

export function clockState(clock: SandboxClock) {
  return {
    now: clock.now().toISOString(),
    offsetMs: clock.offsetMs,
    offset: formatGoDuration(clock.offsetMs),
  };
}

export async function handleClockApi(
  clock: SandboxClock,
  save: (offsetMs: number) => Promise<void>,
  ctx: RequestContext,
): Promise<Response> {
  const method = ctx.request.method.toUpperCase();
  if (method === 'GET') return respondValue(ctx, 200, clockState(clock));
  if (method !== 'POST') throw methodNotAllowed();
  let body: unknown;
  try {
    body = JSON.parse(await readBodyText(ctx.request));
  } catch {
    throw badRequest(
      'the body must be a JSON object: {"advance": "<duration>"} or {"advanceSeconds": <number>}',
    );
  }
  if (!isPlainObject(body)) throw badRequest('the body must be a JSON object: {"advance": "<duration>"}');
  let ms: number;
  if (typeof body.advance === 'string') {
    try {
      ms = parseGoDuration(body.advance);
    } catch (e) {
      throw badRequest(`advance: ${(e as Error).message}`);
    }
  } else if (typeof body.advanceSeconds === 'number' && Number.isFinite(body.advanceSeconds))
    ms = body.advanceSeconds * 1000;
  else throw badRequest('give how far to move the clock: {"advance": "90s"} or {"advanceSeconds": 90}');
  if (ms < 0) throw badRequest('the clock only moves forward: advance must not be negative');
  if (ms > maxAdvanceMs)
    throw badRequest(`advance may be at most ${formatGoDuration(maxAdvanceMs)} at a time`);
  clock.advance(ms);
  await save(clock.offsetMs);
  return respondValue(ctx, 200, clockState(clock));
}
