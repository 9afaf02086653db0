/**
 * Ages as kubectl prints them (`45s`, `3m12s`, `5h`, `2d`), computed on the
 * client from `creationTimestamp`, so an Age column stays current between
 * the server's renderings of the Table.
 */

export function formatAge(timestamp: string | null | undefined, now: number): string {
  if (timestamp === undefined || timestamp === null || timestamp === '') return '';
  const seconds = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/** A clock time with milliseconds, for event lists. */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
