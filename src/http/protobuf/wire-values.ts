/**
 * Value conversions between the JSON form of an object and its protobuf
 * fields that are not one-to-one: 64-bit integers (protobufjs hands back
 * Long objects), bytes (base64 in JSON), and timestamps (RFC 3339 in JSON,
 * seconds and nanoseconds on the wire). Pure functions, shared by the
 * converter and tests.
 */

interface LongLike {
  toNumber(): number;
}

/** A protobufjs integer (number or Long) as a JSON number. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'object' && value !== null && 'toNumber' in value)
    return (value as LongLike).toNumber();
  return Number(value);
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      alphabet.charAt(n >> 18) +
      alphabet.charAt((n >> 12) & 63) +
      alphabet.charAt((n >> 6) & 63) +
      alphabet.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] ?? 0) << 16;
    out += `${alphabet.charAt(n >> 18)}${alphabet.charAt((n >> 12) & 63)}==`;
  } else if (rest === 2) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += `${alphabet.charAt(n >> 18)}${alphabet.charAt((n >> 12) & 63)}${alphabet.charAt((n >> 6) & 63)}=`;
  }
  return out;
}

/** Standard base64 (padding optional, whitespace ignored); undefined when the text is not base64. */
export function base64ToBytes(text: string): Uint8Array | undefined {
  const clean = text.replace(/[\s=]+/g, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const ch of clean) {
    value = (value << 6) | alphabet.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export function utf8(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

export function fromUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

export interface Timestamp {
  seconds: number;
  nanos: number;
}

/** Parses an RFC 3339 time (any offset, optional fraction) into Unix seconds and nanoseconds. */
export function parseTimestamp(text: string): Timestamp | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i.exec(text.trim());
  if (m === null) return undefined;
  const ms = Date.parse(`${m[1] ?? ''}${(m[3] ?? 'Z').toUpperCase()}`);
  if (!Number.isFinite(ms)) return undefined;
  const nanos = m[2] === undefined ? 0 : Number(m[2].padEnd(9, '0'));
  return { seconds: Math.floor(ms / 1000), nanos };
}

function isoSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

/** `metav1.Time` in JSON: RFC 3339 in UTC to the second. */
export function formatTime(seconds: number): string {
  return `${isoSeconds(seconds)}Z`;
}

/** `metav1.MicroTime` in JSON: RFC 3339 in UTC with six fractional digits. */
export function formatMicroTime(seconds: number, nanos: number): string {
  return `${isoSeconds(seconds)}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}
