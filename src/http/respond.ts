/**
 * Response writers: objects in the negotiated representation, Status
 * errors with their HTTP code, and the headers every API response carries
 * (Content-Type, Audit-Id, Cache-Control, Warning).
 */

import { stringify as toYaml } from 'yaml';
import type { NamingProfile } from '../machinery/naming';
import type { StatusError } from '../machinery/errors';
import type { RequestContext } from './context';
import { encodeProtobufBody } from './protobuf/http';

export function baseHeaders(ctx: Pick<RequestContext, 'auditId' | 'warnings'>, contentType: string): Headers {
  const h = new Headers({
    'Content-Type': contentType,
    'Cache-Control': 'no-cache, private',
    'Audit-Id': ctx.auditId,
  });
  for (const w of ctx.warnings) {
    const value = warningHeaderValue(w);
    if (value !== undefined) h.append('Warning', value);
  }
  return h;
}

/** RFC 7234 warn-text: a quoted string with `"` and `\` escaped. */
export function quoteWarning(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

// Control characters as Go's unicode.IsControl sees them (C0, DEL and C1).
// eslint-disable-next-line no-control-regex
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * One `Warning` header value, `299 - "text"`, as the real server writes it
 * (`net.NewWarningHeader`): text that is not valid UTF-8 or holds a control
 * character is dropped (undefined), and the rest goes on the wire as its
 * UTF-8 bytes. Header values are byte strings, so those bytes are carried as
 * Latin-1 code units — the only way a non-ASCII warning (an unknown field
 * named `名前`) reaches the socket instead of making `Headers` throw after the
 * write has been committed.
 */
export function warningHeaderValue(text: string): string | undefined {
  if (controlCharacter.test(text) || loneSurrogate.test(text)) return undefined;
  const quoted = `299 - ${quoteWarning(text)}`;
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u007f]*$/.test(quoted)) return quoted;
  let latin1 = '';
  for (const byte of new TextEncoder().encode(quoted)) latin1 += String.fromCharCode(byte);
  return latin1;
}

export function serialize(value: unknown, kind: 'json' | 'yaml', pretty: boolean): string {
  if (kind === 'yaml') {
    try {
      return toYaml(value, { lineWidth: 0 });
    } catch (e) {
      // The YAML writer recurses deeper per level than JSON's; a value nested close to the decode limit
      // still goes out, as JSON text, which is YAML too (an answer after a commit must not fail).
      if (!(e instanceof RangeError)) throw e;
      return `${JSON.stringify(value)}\n`;
    }
  }
  return pretty ? `${JSON.stringify(value, null, 2)}\n` : `${JSON.stringify(value)}\n`;
}

export function respondValue(ctx: RequestContext, status: number, value: unknown): Response {
  if (ctx.output?.protobuf !== undefined) {
    const encoded = protobufResponse(ctx, ctx.output.protobuf, status, value);
    if (encoded !== undefined) return encoded;
  }
  const out = ctx.output?.kind === 'yaml' ? 'yaml' : 'json';
  const body = serialize(value, out, ctx.pretty);
  const headers = baseHeaders(ctx, out === 'yaml' ? 'application/yaml' : 'application/json');
  return new Response(ctx.request.method === 'HEAD' ? null : body, { status, headers });
}

export function respondError(
  ctx: Pick<RequestContext, 'auditId' | 'warnings' | 'pretty' | 'request'> &
    Partial<Pick<RequestContext, 'output'>>,
  profile: NamingProfile,
  error: StatusError,
): Response {
  if (ctx.output?.protobuf !== undefined) {
    const encoded = protobufResponse(ctx, profile, error.code, error.status);
    if (encoded !== undefined) {
      for (const [k, v] of Object.entries(error.headers)) encoded.headers.set(k, v);
      return encoded;
    }
  }
  const headers = baseHeaders(ctx, 'application/json');
  for (const [k, v] of Object.entries(error.headers)) headers.set(k, v);
  return new Response(ctx.request.method === 'HEAD' ? null : serialize(error.status, 'json', ctx.pretty), {
    status: error.code,
    headers,
  });
}

export function respondText(
  ctx: Pick<RequestContext, 'auditId' | 'warnings'>,
  status: number,
  text: string,
): Response {
  return new Response(text, { status, headers: baseHeaders(ctx, 'text/plain; charset=utf-8') });
}

/** A response in the protobuf envelope, or undefined when the value's kind has no message. */
function protobufResponse(
  ctx: Pick<RequestContext, 'auditId' | 'warnings' | 'request'>,
  profile: NamingProfile,
  status: number,
  value: unknown,
): Response | undefined {
  const bytes = encodeProtobufBody(profile, value);
  if (bytes === undefined) return undefined;
  return new Response(ctx.request.method === 'HEAD' ? null : bytes, {
    status,
    headers: baseHeaders(ctx, profile.protobufMediaType),
  });
}
