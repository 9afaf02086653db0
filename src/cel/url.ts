/**
 * The Kubernetes URL library: `url(string)`, `isURL(string)` and the
 * accessors on the opaque `kubernetes.URL` type. URLs parse as Go's
 * `url.ParseRequestURI` does (absolute URLs and absolute paths; no relative
 * references; fragments are not split off), not as the WHATWG `URL` class
 * does, which normalises hosts and paths differently.
 */

import { celError } from './errors';

export class CelURL {
  constructor(
    readonly raw: string,
    readonly scheme: string,
    readonly opaque: string,
    readonly host: string,
    readonly path: string,
    readonly rawPath: string,
    readonly rawQuery: string,
  ) {}

  hostname(): string {
    const port = this.portStart();
    const host = port < 0 ? this.host : this.host.slice(0, port);
    return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  }

  port(): string {
    const i = this.portStart();
    return i < 0 ? '' : this.host.slice(i + 1);
  }

  private portStart(): number {
    const i = this.host.lastIndexOf(':');
    if (i < 0 || (this.host.startsWith('[') && this.host.indexOf(']') > i)) return -1;
    return /^\d*$/.test(this.host.slice(i + 1)) ? i : -1;
  }

  escapedPath(): string {
    if (this.rawPath !== '' && validEncoded(this.rawPath) && unescape(this.rawPath, 'path') === this.path)
      return this.rawPath;
    if (this.path === '*') return '*';
    return escape(this.path);
  }

  query(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const pair of this.rawQuery.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const k = eq < 0 ? pair : pair.slice(0, eq);
      const v = eq < 0 ? '' : pair.slice(eq + 1);
      try {
        const key = unescape(k.replaceAll('+', ' '), 'query');
        (out[key] ??= []).push(unescape(v.replaceAll('+', ' '), 'query'));
      } catch {
        // Go's Query() drops pairs that do not unescape.
      }
    }
    return out;
  }
}

class UrlError extends Error {}

/** Parses like Go's `url.ParseRequestURI`; throws a CEL error worded as Kubernetes words it. */
export function parseURL(raw: string): CelURL {
  try {
    return parseRequestURI(raw);
  } catch (e) {
    const reason = e instanceof UrlError ? e.message : String(e);
    throw celError(`URL parse error during conversion from string: parse ${JSON.stringify(raw)}: ${reason}`);
  }
}

export function isURL(raw: string): boolean {
  try {
    parseRequestURI(raw);
    return true;
  } catch {
    return false;
  }
}

function parseRequestURI(raw: string): CelURL {
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw new UrlError('net/url: invalid control character in URL');
  if (raw === '') throw new UrlError('empty url');
  if (raw === '*') return new CelURL(raw, '', '', '', '*', '', '');
  const [scheme, afterScheme] = splitScheme(raw);
  let rest = afterScheme;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) [rest, rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  }
  if (!rest.startsWith('/')) {
    if (scheme !== '') return new CelURL(raw, scheme.toLowerCase(), rest, '', '', '', rawQuery);
    throw new UrlError('invalid URI for request');
  }
  let host = '';
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) [authority, rest] = [authority.slice(0, slash), authority.slice(slash)];
    host = parseAuthority(authority);
  }
  const path = unescape(rest, 'path');
  return new CelURL(raw, scheme.toLowerCase(), '', host, path, path === rest ? '' : rest, rawQuery);
}

function splitScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function parseAuthority(authority: string): string {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at >= 0 && !/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(authority.slice(0, at)))
    throw new UrlError('net/url: invalid userinfo');
  return host;
}

function parseHost(host: string): string {
  let colonPort = '';
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new UrlError("missing ']' in host");
    colonPort = host.slice(close + 1);
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) colonPort = host.slice(colon);
  }
  if (colonPort !== '' && !/^:\d*$/.test(colonPort))
    throw new UrlError(`invalid port ${JSON.stringify(colonPort)} after host`);
  return unescape(host, 'host');
}

const HOST_CHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"%]/;

function unescape(s: string, mode: 'path' | 'host' | 'query'): string {
  let out = '';
  let pending: number[] = [];
  const flush = (): void => {
    if (pending.length > 0) out += new TextDecoder().decode(new Uint8Array(pending));
    pending = [];
  };
  for (let i = 0; i < s.length;) {
    if (s[i] === '%') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex))
        throw new UrlError(`invalid URL escape ${JSON.stringify(s.slice(i, i + 3))}`);
      pending.push(parseInt(hex, 16));
      i += 3;
      continue;
    }
    flush();
    const ch = String.fromCodePoint(s.codePointAt(i)!);
    if (mode === 'host' && ch.charCodeAt(0) < 0x80 && !HOST_CHAR.test(ch))
      throw new UrlError(`invalid character ${JSON.stringify(ch)} in host name`);
    out += ch;
    i += ch.length;
  }
  flush();
  return out;
}

function validEncoded(s: string): boolean {
  return /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9a-fA-F]{2})*$/.test(s);
}

function escape(path: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(path)) {
    const c = String.fromCharCode(byte);
    out +=
      byte < 0x80 && /[A-Za-z0-9\-._~$&+,/:;=@]/.test(c)
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
