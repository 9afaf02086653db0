/**
 * PEM as Go's `encoding/pem.Decode` reads it, over raw bytes: text before a
 * block is skipped, a block whose END line does not match or whose body is
 * not base64 is skipped too, `Key: value` lines after BEGIN are headers.
 * The certificate request checks depend on exactly which block Go finds
 * first (a malformed CERTIFICATE REQUEST block followed by nothing is "not
 * a CERTIFICATE REQUEST"), so the project's lenient PEM reader
 * (`auth/pki/pem.ts`) would not do. Also Go's `%#v` of a `[]byte`, the
 * bad value these checks report.
 */

import { decodeGoBase64 } from '../../../../machinery/go-base64';

export interface GoPemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

const pemStart = '\n-----BEGIN ';
const pemEnd = '\n-----END ';
const pemEndOfLine = '-----';

const singleByte = new TextDecoder('latin1');

/**
 * Bytes as a string of one code unit per byte, so string search keeps byte
 * offsets. (The decoder is windows-1252, which maps a few bytes above 0x7f
 * elsewhere — still one unit per byte and one-to-one, and PEM is ASCII.)
 */
export function latin1(bytes: Uint8Array): string {
  return singleByte.decode(bytes);
}

/** Go's `getLine` at `pos`: up to the next LF, trailing spaces, tabs and CR trimmed, and where the next line starts. */
function getLine(data: string, pos: number): [string, number] {
  const i = data.indexOf('\n', pos);
  let end = i < 0 ? data.length : i;
  // A loop, not a regex: a long run of spaces would make `/[ \t\r]+$/` quadratic.
  while (end > pos && ' \t\r'.includes(data.charAt(end - 1))) end--;
  return [data.slice(pos, end), i < 0 ? data.length : i + 1];
}

/** Characters a PEM body may hold; the first other one (say the dashes of a later BEGIN) fails its decode. */
const notBase64 = /[^A-Za-z0-9+/=\s]/;

/**
 * The first well-formed PEM block of `data` (a latin1 string) and what
 * follows it, or undefined. Go's walk, with positions into `data` and the
 * next END line remembered, so text of many BEGIN lines stays linear.
 */
export function goPemDecode(data: string): { block: GoPemBlock; rest: string } | undefined {
  let pos = 0;
  let nextEnd = -2;
  const endFrom = (from: number): number => {
    if (nextEnd === -1 || nextEnd >= from) return nextEnd;
    nextEnd = data.indexOf(pemEnd, from);
    return nextEnd;
  };
  for (;;) {
    if (data.startsWith(pemStart.slice(1), pos)) pos += pemStart.length - 1;
    else {
      const i = data.indexOf(pemStart, pos);
      if (i < 0) return undefined;
      pos = i + pemStart.length;
    }
    let typeLine: string;
    [typeLine, pos] = getLine(data, pos);
    if (!typeLine.endsWith(pemEndOfLine)) continue;
    typeLine = typeLine.slice(0, typeLine.length - pemEndOfLine.length);

    const headers: Record<string, string> = {};
    let headerCount = 0;
    for (;;) {
      if (pos >= data.length) return undefined;
      const [line, next] = getLine(data, pos);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      headerCount++;
      pos = next;
    }

    let endIndex: number;
    let endTrailerIndex: number;
    // Without headers the END line may follow at once, without a newline before it.
    if (headerCount === 0 && data.startsWith(pemEnd.slice(1), pos)) {
      endIndex = pos;
      endTrailerIndex = pos + pemEnd.length - 1;
    } else {
      endIndex = endFrom(pos);
      // No END anywhere after here: no later block can be complete either.
      if (endIndex < 0) return undefined;
      endTrailerIndex = endIndex + pemEnd.length;
    }
    const trailerLength = typeLine.length + pemEndOfLine.length;
    const endTrailer = data.slice(endTrailerIndex, endTrailerIndex + trailerLength);
    if (endTrailer.length < trailerLength) continue;
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(pemEndOfLine)) continue;
    if (getLine(data, endTrailerIndex + trailerLength)[0].length !== 0) continue;
    const body = data.slice(pos, endIndex);
    if (notBase64.test(body)) continue;
    const decoded = decodeGoBase64(body.replace(/[ \t]/g, ''));
    if (!decoded.ok) continue;
    const after = getLine(data, endIndex + pemEnd.length - 1)[1];
    return { block: { type: typeLine, headers, bytes: decoded.bytes }, rest: data.slice(after) };
  }
}

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
