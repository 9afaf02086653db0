/**
 * Continue tokens of paged lists: the snapshot revision and the last key
 * returned, encoded opaquely and signed (HMAC-SHA-256 with a per-store key)
 * so that a forged or corrupt token is a clear 400, never a crash or a read
 * outside the collection.
 */

import { badRequest } from '../machinery/errors';

export interface ContinuePosition {
  /** Revision of the list snapshot. */
  revision: number;
  /** Last key returned (exclusive start of the next page). */
  after: string;
}

function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

export class ContinueTokens {
  private constructor(private readonly key: HmacKey) {}

  static async create(secret: Uint8Array<ArrayBuffer>): Promise<ContinueTokens> {
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return new ContinueTokens(key);
  }

  async encode(pos: ContinuePosition, prefix: string): Promise<string> {
    const payload = new TextEncoder().encode(
      JSON.stringify({ v: 1, rv: pos.revision, start: pos.after, p: prefix }),
    );
    const sig = new Uint8Array(await crypto.subtle.sign('HMAC', this.key, payload));
    return `${b64url(payload)}.${b64url(sig.slice(0, 16))}`;
  }

  /** Decodes a token issued for the collection under `prefix`; anything else is 400. */
  async decode(token: string, prefix: string): Promise<ContinuePosition> {
    const invalid = (why: string) => badRequest(`invalid continue token: ${why}`);
    const dot = token.indexOf('.');
    if (dot <= 0) throw invalid('continue key is not valid: malformed');
    let payload: Uint8Array<ArrayBuffer>;
    let sig: Uint8Array<ArrayBuffer>;
    try {
      payload = fromB64url(token.slice(0, dot));
      sig = fromB64url(token.slice(dot + 1));
    } catch {
      throw invalid('continue key is not valid: not base64');
    }
    const expected = new Uint8Array(await crypto.subtle.sign('HMAC', this.key, payload)).slice(0, 16);
    if (sig.length !== expected.length || sig.some((b, i) => b !== expected[i]))
      throw invalid('continue key is not valid: signature mismatch');
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      throw invalid('continue key is not valid: malformed');
    }
    const p = parsed as { v?: unknown; rv?: unknown; start?: unknown; p?: unknown };
    if (p.v !== 1 || typeof p.rv !== 'number' || typeof p.start !== 'string' || typeof p.p !== 'string')
      throw invalid('continue key is not valid: unknown version');
    if (p.p !== prefix || !p.start.startsWith(prefix))
      throw invalid('continue key is not valid: issued for another collection');
    return { revision: p.rv, after: p.start };
  }
}
