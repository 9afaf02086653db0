/**
 * Base64 as Go's `encoding/json` reads a `[]byte` field (standard
 * alphabet, padding required, CR and LF ignored): the decoded bytes, or the
 * offset Go's decoder reports in `illegal base64 data at input byte N`.
 * The API server decodes a body with it before any code sees the object, so
 * a `spec.request` of `"hello!"` is a 400 from decoding, not a 422.
 */

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const decodeMap = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;

const pad = 0x3d; // '='
const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d;

export type GoBase64Result = { ok: true; bytes: Uint8Array } | { ok: false; offset: number };

const canonical = /^[A-Za-z0-9+/]*={0,2}$/;

/** Go's `base64.StdEncoding.Decode` over the UTF-8 bytes of `text`. */
export function decodeGoBase64(text: string): GoBase64Result {
  // Padded text of the alphabet only (what every client sends) decodes natively; the rest walks Go's steps.
  if (text.length % 4 === 0 && canonical.test(text)) {
    try {
      const binary = atob(text);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return { ok: true, bytes };
    } catch {
      // e.g. "A===": Go's walk finds the offset
    }
  }
  const src = utf8(text);
  const out = new Uint8Array(Math.floor((src.length * 3) / 4) + 3);
  let n = 0;
  let si = 0;
  const quantum = [0, 0, 0, 0];
  while (si < src.length) {
    let len = 4;
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        // Input ran out inside a quantum: standard encoding needs padding.
        if (j === 0) return { ok: true, bytes: out.subarray(0, n) };
        return { ok: false, offset: si - j };
      }
      const c = src[si] ?? 0;
      si++;
      const v = decodeMap[c] ?? -1;
      if (v >= 0) {
        quantum[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== pad) return { ok: false, offset: si - 1 };
      // Padding: only after two or three symbols, and "==" must be complete.
      if (j < 2) return { ok: false, offset: si - 1 };
      if (j === 2) {
        while (si < src.length && isNewline(src[si] ?? 0)) si++;
        if (si === src.length) return { ok: false, offset: src.length };
        if (src[si] !== pad) return { ok: false, offset: si - 1 };
        si++;
      }
      while (si < src.length && isNewline(src[si] ?? 0)) si++;
      if (si < src.length) return { ok: false, offset: si };
      len = j;
      break;
    }
    const [a = 0, b = 0, c = 0, d = 0] = quantum;
    const word = (a << 18) | (b << 12) | (c << 6) | d;
    if (len >= 2) out[n++] = (word >> 16) & 0xff;
    if (len >= 3) out[n++] = (word >> 8) & 0xff;
    if (len >= 4) out[n++] = word & 0xff;
    quantum.fill(0);
    if (len < 4) break;
  }
  return { ok: true, bytes: out.subarray(0, n) };
}

/** Go's error text for a failed decode. */
export function goBase64Error(offset: number): string {
  return `illegal base64 data at input byte ${offset}`;
}

function utf8(text: string): Uint8Array {
  // ASCII (every valid base64 text) needs no encoder pass.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) {
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    return bytes;
  }
  return new TextEncoder().encode(text);
}
