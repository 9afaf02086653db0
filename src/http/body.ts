/**
 * Request bodies: read with the real server's size limit (3 MiB), decoded
 * as JSON or YAML into a JSON value while noting repeated fields (which
 * field validation reports), and checked to be an object of the endpoint's
 * apiVersion and kind. Malformed input is a 400 in the real server's words
 * and an oversized one a 413 — never an exception that escapes as a 500.
 */

import type { KubeObject } from '../api/meta';
import { badRequest, requestEntityTooLarge, type StatusError } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import { decodeJson, decodeJsonSliced, JsonSyntaxError } from '../machinery/decode/json';
import { decodeYaml, yamlDuplicatesError, YamlSyntaxError } from '../machinery/decode/yaml';
import { yamlLibrary } from '../machinery/decode/yaml-library';
import type { BodyFormat } from './negotiate';
import type { DecodeFindings } from './field-validation';

export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** One decoder for every body: it keeps no state between `decode` calls without `stream`. */
const utf8 = new TextDecoder();

export async function readBodyText(request: Request): Promise<string> {
  return utf8.decode(await readBodyBytes(request));
}

/**
 * Whether bodies without a declared length are read whole before their size is known; a host sets it once,
 * before the server starts. In a service worker every request comes from a page it controls, whose body the
 * browser already holds, so reading it as a stream guards no memory — and there `arrayBuffer()` reads it
 * natively where a reader costs a stream's setup and a promise per chunk (decision 0115: the largest single
 * item of a create's body read in the worker's profile). A server reading from a socket (the Node host) keeps
 * the default, the stream, so that a chunked body is refused as soon as it is too long.
 */
let wholeBodies = false;

/** Reads bodies without a declared length whole (a host whose bodies are already in memory, the service worker). */
export function setReadBodiesWhole(whole: boolean): void {
  wholeBodies = whole;
}

/** The raw body, read with the size limit. */
export async function readBodyBytes(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxRequestBodyBytes)
    throw requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`);
  // A declared length is held to by the HTTP layer, so the body can be read whole: under Node this lets the
  // adapter read the socket directly instead of building a full Request with a stream around it.
  if (Number.isFinite(declared)) return new Uint8Array(await request.arrayBuffer());
  if (request.body === null) return new Uint8Array();
  if (wholeBodies) {
    const whole = new Uint8Array(await request.arrayBuffer());
    if (whole.byteLength > maxRequestBodyBytes)
      throw requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`);
    return whole;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxRequestBodyBytes) {
      await reader.cancel();
      throw requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return all;
}

export interface DecodedBody {
  value: unknown;
  /** What field validation reports besides unknown fields: the body's repeated fields. */
  findings: DecodeFindings;
}

/** The real server's short form of a body it could not read: its start, as text or hex. */
export function summarizeBody(text: string, max = 30): string {
  if (text === '') return '<empty>';
  const bytes = new TextEncoder().encode(text);
  if (text.startsWith('{'))
    return bytes.length > max ? `${new TextDecoder().decode(bytes.slice(0, max))} ...` : text;
  const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return bytes.length > max ? `${hex(bytes.slice(0, max))} ...` : hex(bytes);
}

/**
 * Decodes the body of a POST or PUT. A JSON body of a built-in kind (`typed`)
 * is read as the real server decodes into the kind's type: a repeated
 * object merges into the earlier one. With `kind`, unreadable bodies answer
 * as the real server does when it cannot tell what the body is.
 */
function unreadableBody(text: string, expect: { kind?: string }, why: string): StatusError {
  return badRequest(
    expect.kind === undefined
      ? why
      : `the object provided is unrecognized (must be of type ${expect.kind}): ${why} (${summarizeBody(text)})`,
  );
}

export function decodeObjectBody(
  text: string,
  format: BodyFormat,
  expect: { kind?: string; typed?: boolean } = {},
): DecodedBody {
  const unreadable = (why: string) => unreadableBody(text, expect, why);
  if (format === 'json') {
    try {
      const decoded = decodeJson(text, { mergeDuplicates: expect.typed === true });
      return { value: decoded.value, findings: { typed: decoded.duplicates } };
    } catch (e) {
      if (e instanceof JsonSyntaxError)
        throw unreadable(`couldn't get version/kind; json parse error: ${e.message}`);
      throw e;
    }
  }
  if (format === 'yaml') {
    const json = plainJsonBody(text);
    if (json !== undefined) return json;
    try {
      const decoded = decodeYaml(text);
      return {
        value: decoded.value,
        findings: { leading: decoded.duplicates.length > 0 ? [yamlDuplicatesError(decoded.duplicates)] : [] },
      };
    } catch (e) {
      if (e instanceof YamlSyntaxError) throw unreadable(`error converting YAML to JSON: ${e.message}`);
      throw e;
    }
  }
  throw badRequest('protobuf request bodies are not supported for this request');
}

/**
 * A YAML body that is plain JSON, read as such, else undefined. YAML is a superset of JSON: a JSON
 * document (kubectl and the controllers send apply bodies as JSON) reads the same through the much
 * faster JSON decoder. Only a duplicate key, which YAML words differently, or anything that is not
 * plain JSON takes the YAML path.
 */
function plainJsonBody(text: string): DecodedBody | undefined {
  if (!/^\s*[{[]/.test(text)) return undefined;
  try {
    const decoded = decodeJson(text, { mergeDuplicates: false });
    return decoded.duplicates.length === 0 ? { value: decoded.value, findings: {} } : undefined;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    return undefined;
  }
}

/**
 * `decodeObjectBody` for a handler: a body that takes the YAML decoder loads the YAML library first
 * (a JSON body sent as YAML, as apply bodies usually are, does not need it).
 */
export async function decodeObjectBodyAsync(
  text: string,
  format: BodyFormat,
  expect: { kind?: string; typed?: boolean } = {},
): Promise<DecodedBody> {
  if (format === 'json') {
    // A long body is scanned in slices, letting other requests run meanwhile.
    try {
      const decoded = await decodeJsonSliced(text, { mergeDuplicates: expect.typed === true });
      return { value: decoded.value, findings: { typed: decoded.duplicates } };
    } catch (e) {
      if (e instanceof JsonSyntaxError)
        throw unreadableBody(text, expect, `couldn't get version/kind; json parse error: ${e.message}`);
      throw e;
    }
  }
  if (format === 'yaml' && !yamlLibrary.loaded) {
    const json = plainJsonBody(text);
    if (json !== undefined) return json;
    await yamlLibrary.load();
  }
  return decodeObjectBody(text, format, expect);
}

export interface ExpectedType {
  apiVersion: string;
  kind: string;
}

/** A body as an object of the expected type: missing apiVersion/kind are filled, different ones are 400. */
export function asObjectOfType(value: unknown, expected: ExpectedType): KubeObject {
  if (!isPlainObject(value)) {
    throw badRequest(`Object 'Kind' is missing in '${truncate(JSON.stringify(value) ?? String(value))}'`);
  }
  const obj = value as KubeObject;
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== expected.apiVersion) {
    throw badRequest(
      `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected.apiVersion})`,
    );
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== expected.kind) {
    throw badRequest(
      `the kind in the data (${String(obj.kind)}) does not match the expected kind (${expected.kind})`,
    );
  }
  if (obj.metadata !== null && obj.metadata !== undefined && !isPlainObject(obj.metadata)) {
    // Decoding into the kind's struct fails on the field, before anything reads it.
    const version = expected.apiVersion.slice(expected.apiVersion.indexOf('/') + 1);
    const what = Array.isArray(obj.metadata)
      ? 'array'
      : typeof obj.metadata === 'boolean'
        ? 'bool'
        : typeof obj.metadata;
    throw badRequest(
      `${expected.kind} in version ${JSON.stringify(version)} cannot be handled as a ${expected.kind}: json: cannot unmarshal ${what} into Go struct field ${expected.kind}.metadata of type v1.ObjectMeta`,
    );
  }
  obj.apiVersion = expected.apiVersion;
  obj.kind = expected.kind;
  if (obj.metadata === null || obj.metadata === undefined) obj.metadata = {};
  return obj;
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}...` : s;
}
