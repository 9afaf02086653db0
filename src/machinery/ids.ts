/**
 * Server-generated identities and times: random UIDs, the 5-character
 * suffix of generateName, and RFC 3339 timestamps with second precision as
 * the server writes creationTimestamp and deletionTimestamp.
 */

/** The alphabet of generated name suffixes (no vowels, no confusable digits), as the real server's. */
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function randomSuffix(length = 5): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) out += suffixAlphabet[b % suffixAlphabet.length];
  return out;
}

export function newUid(): string {
  return crypto.randomUUID();
}

/** RFC 3339 in UTC with whole seconds, e.g. `2024-05-01T12:00:00Z`. */
export function rfc3339Seconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
