/**
 * Request bodies: read with the real server's size limit (3 MiB), parsed as
 * JSON or YAML into a JSON value, and checked to be an object of the
 * endpoint's apiVersion and kind. Malformed input is a 400 and an oversized
 * one a 413 — never an exception that escapes as a 500.
 */

import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../api/meta';
import { badRequest, requestEntityTooLarge } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import type { BodyFormat } from './negotiate';

export const maxRequestBodyBytes = 3 * 1024 * 1024;

export async function readBodyText(request: Request): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request));
}

/** The raw body, read with the size limit. */
export async function readBodyBytes(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxRequestBodyBytes) throw requestEntityTooLarge(`limit is ${maxRequestBodyBytes}`);
  if (request.body === null) return new Uint8Array();
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

/** Parses JSON or YAML into a JSON value; syntax errors are 400. */
export function parseBody(text: string, format: BodyFormat): unknown {
  if (format === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (e) {
      throw badRequest(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (format === 'yaml') {
    try {
      return parseYaml(text, { schema: 'core', uniqueKeys: false }) as unknown;
    } catch (e) {
      throw badRequest(`error converting YAML to JSON: yaml: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw badRequest('protobuf request bodies are not supported for this request');
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
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expected.apiVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== expected.kind) {
    throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${expected.kind})`);
  }
  obj.apiVersion = expected.apiVersion;
  obj.kind = expected.kind;
  if (obj.metadata === null || obj.metadata === undefined) obj.metadata = {};
  else if (!isPlainObject(obj.metadata)) throw badRequest('metadata must be an object');
  return obj;
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}...` : s;
}
