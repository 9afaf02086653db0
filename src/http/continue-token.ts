/**
 * Continue tokens of paged lists, in the real server's shape: unpadded
 * URL-safe base64 of `{"v":"<meta group>/v1","rv":<revision>,"start":
 * "<next key, relative to the collection>"}`, decoded in the real order
 * with the real messages (`invalid continue token: continue key is not
 * valid: …`). The sandbox adds one field, `sig`, an HMAC-SHA-256 (per-store
 * key) of the position and the collection, so that a token another
 * collection or server issued, or one edited by hand, is a clear 400
 * rather than a read from wherever it points.
 */

import { badRequest } from '../machinery/errors';

export interface ContinuePosition {
  /** Revision of the list snapshot. */
  revision: number;
  /** Last key returned (exclusive start of the next page). */
  after: string;
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Go's `base64.RawURLEncoding.DecodeString`: its error names the first byte it cannot use. */
export function decodeRawUrlBase64(text: string): Uint8Array | string {
  for (let i = 0; i < text.length; i++)
    if (!alphabet.includes(text.charAt(i))) return `illegal base64 data at input byte ${i}`;
  if (text.length % 4 === 1) return `illegal base64 data at input byte ${text.length - 1}`;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * How Go's JSON errors quote the byte they stopped at (`quoteChar`): the
 * byte read as the code point of the same value, written as `strconv.Quote`
 * writes it — printable as itself, otherwise escaped (`'\x01'`, `'\u0081'`).
 */
function quoteByte(b: number): string {
  if (b === 0x27) return `'\\''`;
  if (b === 0x22) return `'"'`;
  const c = String.fromCharCode(b);
  if (b === 0x07) return `'\\a'`;
  if (b === 0x08) return `'\\b'`;
  if (b === 0x0c) return `'\\f'`;
  if (b === 0x0a) return `'\\n'`;
  if (b === 0x0d) return `'\\r'`;
  if (b === 0x09) return `'\\t'`;
  if (b === 0x0b) return `'\\v'`;
  if (b === 0x5c) return `'\\\\'`;
  if (b < 0x20 || b === 0x7f) return `'\\x${b.toString(16).padStart(2, '0')}'`;
  // Latin-1 controls, no-break space and soft hyphen are not printable to strconv.IsPrint.
  if ((b >= 0x80 && b <= 0xa0) || b === 0xad) return `'\\u${b.toString(16).padStart(4, '0')}'`;
  return `'${c}'`;
}

/** The text of Go's `json.Unmarshal` error for input that is not JSON (the common cases). */
function jsonSyntaxError(bytes: Uint8Array, e: unknown): string {
  let i = 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0d || bytes[i] === 0x0a)
  )
    i++;
  if (i === bytes.length) return 'unexpected end of JSON input';
  const first = bytes[i] ?? 0;
  if (!/[{["\-0-9tfn]/.test(String.fromCharCode(first)))
    return `invalid character ${quoteByte(first)} looking for beginning of value`;
  if (e instanceof Error && /end of (JSON )?input/i.test(e.message)) return 'unexpected end of JSON input';
  return 'invalid character in JSON input';
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** Go's `path.Clean` for the absolute keys a token may carry. */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

export class ContinueTokens {
  private constructor(
    private readonly key: HmacKey,
    private readonly version: string,
  ) {}

  /** `metaGroup` names the token version (`<metaGroup>/v1`), as the naming profile spells the meta group. */
  static async create(secret: Uint8Array<ArrayBuffer>, metaGroup: string): Promise<ContinueTokens> {
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return new ContinueTokens(key, `${metaGroup}/v1`);
  }

  private async sign(rv: number, start: string, prefix: string): Promise<string> {
    const data = new TextEncoder().encode(JSON.stringify([rv, start, prefix]));
    return b64url(new Uint8Array(await crypto.subtle.sign('HMAC', this.key, data)).slice(0, 16));
  }

  async encode(pos: ContinuePosition, prefix: string): Promise<string> {
    // As the real server writes it: the key after the last one returned, relative to the collection.
    const relative = pos.after.startsWith(prefix) ? pos.after.slice(prefix.length) : pos.after;
    const start = `${relative}\u0000`;
    const sig = await this.sign(pos.revision, start, prefix);
    const payload = JSON.stringify({ v: this.version, rv: pos.revision, start, sig });
    return b64url(new TextEncoder().encode(payload));
  }

  /** Decodes a token issued for the collection under `prefix`; anything else is 400. */
  async decode(token: string, prefix: string): Promise<ContinuePosition> {
    const invalid = (why: string) => badRequest(`invalid continue token: continue key is not valid${why}`);
    const bytes = decodeRawUrlBase64(token);
    if (typeof bytes === 'string') throw invalid(`: ${bytes}`);
    const text = new TextDecoder().decode(bytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw invalid(`: ${jsonSyntaxError(bytes, e)}`);
    }
    if (parsed === null) parsed = {};
    if (typeof parsed !== 'object' || Array.isArray(parsed))
      throw invalid(
        `: json: cannot unmarshal ${jsonType(parsed)} into Go value of type storage.continueToken`,
      );
    const fields = parsed as Record<string, unknown>;
    const field = (name: string, goType: string, ok: (v: unknown) => boolean): void => {
      const v = fields[name];
      if (v !== undefined && v !== null && !ok(v))
        throw invalid(
          `: json: cannot unmarshal ${jsonType(v)} into Go struct field continueToken.${name} of type ${goType}`,
        );
    };
    field('v', 'string', (v) => typeof v === 'string');
    field('rv', 'int64', (v) => typeof v === 'number' && Number.isInteger(v));
    field('start', 'string', (v) => typeof v === 'string');
    const version = typeof fields.v === 'string' ? fields.v : '';
    const rv = typeof fields.rv === 'number' ? fields.rv : 0;
    const start = typeof fields.start === 'string' ? fields.start : '';
    if (version !== this.version) throw invalid(': server does not recognize this encoded version');
    if (rv === 0) throw invalid(`: incorrect encoded start resourceVersion (version ${this.version})`);
    if (start === '') throw invalid(`: encoded start key empty (version ${this.version})`);
    const key = start.startsWith('/') ? start : `/${start}`;
    if (cleanPath(key) !== key) throw invalid(`: ${start}`);
    // The sandbox's own check, past everything the real server checks.
    const sig = typeof fields.sig === 'string' ? fields.sig : '';
    if (sig !== (await this.sign(rv, start, prefix)))
      throw invalid(': it was not issued by this server for this collection');
    return { revision: rv, after: prefix + start.slice(0, -1) };
  }
}
