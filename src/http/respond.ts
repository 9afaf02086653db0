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
  for (const w of ctx.warnings) h.append('Warning', `299 - ${quoteWarning(w)}`);
  return h;
}

/** RFC 7234 warn-text: a quoted string with `"` and `\` escaped. */
export function quoteWarning(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function serialize(value: unknown, kind: 'json' | 'yaml', pretty: boolean): string {
  if (kind === 'yaml') return toYaml(value, { lineWidth: 0 });
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
