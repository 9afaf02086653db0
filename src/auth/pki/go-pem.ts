/**
 * PEM as Go's `encoding/pem.Decode` reads it, over raw bytes: text before a
 * block is skipped, a block whose END line does not match or whose body is
 * not base64 is skipped too, `Key: value` lines after BEGIN are headers.
 * Whoever reads a certificate request or a certificate the real server
 * reads with Go must find the same first block — the registry's checks of
 * a CertificateSigningRequest and the signers that issue for it — or a
 * request one accepts the other cannot read; the project's lenient PEM
 * reader (`pem.ts`, for bundles the hosts load) would not do.
 */

import { decodeGoBase64 } from '../../machinery/go-base64';

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
