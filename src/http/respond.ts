/**
 * Response writers: objects in the negotiated representation, Status
 * errors with their HTTP code, and the headers every API response carries
 * (Content-Type, Audit-Id, Cache-Control, Warning).
 */

import { yamlLibrary } from '../machinery/decode/yaml-library';
import type { NamingProfile } from '../machinery/naming';
import type { StatusError } from '../machinery/errors';
import type { RequestContext } from './context';
import { explainHeader, type Explanation } from '../api/explain';
import { encodeProtobufBody } from './protobuf/http';
import { goJsonFor } from '../registry/encoding/go-json';
import { yamlSorted } from './yaml-key-order';
import { breathe, runSliced } from '../machinery/cooperative';
import { jsonSizeAtMost, slicedAbove } from '../machinery/json';
import { jsonTextWork } from '../machinery/json-text';

export function baseHeaders(
  ctx: Pick<RequestContext, 'auditId' | 'warnings'> & { explanation?: Explanation },
  contentType: string,
): Headers {
  return new Headers(baseHeaderList(ctx, contentType));
}

/**
 * `baseHeaders` as name/value pairs, for a `Response` made at once (it builds its own header list from them:
 * a `Headers` first would be built twice).
 */
export function baseHeaderList(
  ctx: Pick<RequestContext, 'auditId' | 'warnings'> & { explanation?: Explanation },
  contentType: string,
): [string, string][] {
  const h: [string, string][] = [
    ['Content-Type', contentType],
    ['Cache-Control', 'no-cache, private'],
    ['Audit-Id', ctx.auditId],
  ];
  // The sandbox's account of a 401 or 403, beside the real Status (URI-encoded JSON keeps the header ASCII).
  if (ctx.explanation !== undefined) h.push([explainHeader, explanationHeaderValue(ctx.explanation)]);
  for (const w of ctx.warnings) {
    const value = warningHeaderValue(w);
    if (value !== undefined) h.push(['Warning', value]);
  }
  return h;
}

/**
 * `baseHeaderList` for a `Response` made at once, as a record when it is the three base headers alone (most
 * answers: no warning, no explanation): the browser converts a record to its header list for less than the
 * same pairs as arrays (~3 µs of a service worker's time per answer). With a warning or an explanation, the
 * pairs (a name may repeat).
 */
export function baseHeaderInit(
  ctx: Pick<RequestContext, 'auditId' | 'warnings'> & { explanation?: Explanation },
  contentType: string,
): [string, string][] | Record<string, string> {
  if (ctx.explanation !== undefined || ctx.warnings.length > 0) return baseHeaderList(ctx, contentType);
  return { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private', 'Audit-Id': ctx.auditId };
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

/**
 * The text of an answer. YAML keys are sorted at every depth, as the real
 * server's JSON-to-YAML conversion does (see `yaml-key-order.ts`).
 */
export function serialize(value: unknown, kind: 'json' | 'yaml', pretty: boolean): string {
  if (kind === 'yaml') {
    try {
      // Loaded by the request pipeline for a request whose Accept names YAML (server/pipeline.ts).
      return yamlLibrary.get().stringify(yamlSorted(value), { lineWidth: 0 });
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
  // Objects go out as the real server's Go encoder writes them (field order, zero values): one place for all.
  const profile = ctx.output?.profile;
  const body = serialize(profile === undefined ? value : goJsonFor(profile).shape(value), out, ctx.pretty);
  const headers = baseHeaderInit(ctx, out === 'yaml' ? 'application/yaml' : 'application/json');
  return new Response(ctx.request.method === 'HEAD' ? null : body, { status, headers });
}

/**
 * `respondValue` for a value that may be wide (an object as a write or read answers it): its JSON text is
 * written in slices, letting other requests run meanwhile (machinery/json-text.ts); other forms and small
 * values as `respondValue`.
 */
export async function respondValueSliced(
  ctx: RequestContext,
  status: number,
  value: unknown,
): Promise<Response> {
  if (ctx.output?.protobuf !== undefined || ctx.output?.kind === 'yaml' || jsonSizeAtMost(value, slicedAbove))
    return respondValue(ctx, status, value);
  const profile = ctx.output?.profile;
  // Wide maps of scalars are not copied in Go's order here but written in it by the sliced encoder.
  const shaped =
    profile === undefined ? { value, keyOrder: undefined } : goJsonFor(profile).shapeForSlicedText(value);
  await breathe();
  const body = `${await runSliced(jsonTextWork(shaped.value, ctx.pretty, shaped.keyOrder))}\n`;
  const headers = baseHeaders(ctx, 'application/json');
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
  const body = serialize(goJsonFor(profile).shape(error.status), 'json', ctx.pretty);
  return new Response(ctx.request.method === 'HEAD' ? null : body, {
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

/**
 * Clients cap a response's headers (Node's parser and undici at 16 KiB), so
 * the explanation stays under 8 KiB: an authorization explanation keeps its
 * decisions and suggested grant and as many of the considered bindings as
 * fit, those whose subjects matched first, and says how many it left out.
 */
const maxExplanationBytes = 8 * 1024;

export function explanationHeaderValue(explanation: Explanation): string {
  const encode = (e: unknown): string => encodeURIComponent(JSON.stringify(e));
  let value = encode(explanation);
  if (value.length <= maxExplanationBytes) return value;
  if (explanation.kind === 'authentication') {
    // Reasons may quote what was presented (a huge token): each is cut to a readable length.
    const cut = (text: string | undefined) =>
      text === undefined || text.length <= 300 ? text : `${text.slice(0, 300)}… (${text.length} characters)`;
    value = encode({
      ...explanation,
      attempts: explanation.attempts.map((a) => ({ ...a, reason: cut(a.reason) })),
    });
    return value.length <= maxExplanationBytes ? value : encode({ kind: 'authentication', attempts: [] });
  }
  const ranked = [...explanation.considered].sort(
    (a, b) => Number(!b.subjectMatch.startsWith('no match')) - Number(!a.subjectMatch.startsWith('no match')),
  );
  for (let keep = ranked.length; keep >= 0; keep = Math.min(keep - 1, Math.floor(keep / 2))) {
    value = encode({
      ...explanation,
      considered: ranked.slice(0, keep),
      omittedBindings: ranked.length - keep,
    });
    if (value.length <= maxExplanationBytes) return value;
  }
  return encode({ ...explanation, considered: [], suggestion: undefined, omittedBindings: ranked.length });
}
