/**
 * Go's `%#v` of a `[]byte`, the bad value the certificate request checks
 * report, cut short for a huge value.
 */

/** Above this many bytes a bad value shows only its beginning (the real server would echo megabytes). */
export const maxShownBytes = 4096;
const shownWhenLong = 256;

/** Go's `%#v` of a `[]byte`: `[]byte{0x2d, 0x2d}`, `[]byte{}`, or `[]byte(nil)` for an absent value. */
export function goBytesValue(bytes: Uint8Array | undefined): string {
  if (bytes === undefined) return '[]byte(nil)';
  const long = bytes.length > maxShownBytes;
  const shown = long ? bytes.subarray(0, shownWhenLong) : bytes;
  const items = Array.from(shown, (b) => `0x${b.toString(16)}`);
  if (long) items.push(`... (${bytes.length - shownWhenLong} more bytes)`);
  return `[]byte{${items.join(', ')}}`;
}
