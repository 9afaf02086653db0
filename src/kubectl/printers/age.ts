/**
 * Ages as kubectl shows them (apimachinery's duration.HumanDuration):
 * `45s`, `2m30s`, `15m`, `3h20m`, `5d4h`, `400d`, `2y30d`; `<invalid>` for
 * a time more than a second in the future and `<unknown>` for none.
 */

import { humanDuration } from '../../machinery/human-duration';

export { humanDuration };

/** translateTimestampSince: the age of an RFC 3339 time, `<unknown>` when there is none. */
export function ageSince(timestamp: unknown, now: Date): string {
  if (typeof timestamp !== 'string' || timestamp === '') return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now.getTime() - t);
}
