/**
 * Applies a webhook's JSON patch (RFC 6902) the way the real server's
 * patch library does, with its error texts: a patch that does not apply
 * fails the request with a 500 whatever the failure policy, so the message
 * is what the learner sees. As in that library, `replace` of a missing
 * object key sets it, and every failure names the path.
 */

import type { JsonValue } from '../../api/meta';

export class JsonPatchError extends Error {}

type Container = Record<string, JsonValue> | JsonValue[];

interface Operation {
  op?: unknown;
  path?: unknown;
  from?: unknown;
  value?: JsonValue;
}

/** Decodes the patch document (an array of operations); throws with the library's wording. */
export function decodePatch(text: string): Operation[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new JsonPatchError(e instanceof Error ? e.message : String(e));
  }
  if (!Array.isArray(parsed))
    throw new JsonPatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  return parsed as Operation[];
}

/** Returns the patched copy; throws a JsonPatchError with the real wording. */
export function applyPatch(document: JsonValue, operations: readonly Operation[]): JsonValue {
  const root: { doc: JsonValue } = { doc: structuredClone(document) };
  for (const op of operations) {
    const path = typeof op.path === 'string' ? op.path : '';
    switch (op.op) {
      case 'add':
        add(root, path, clone(op.value));
        break;
      case 'remove':
        remove(root, path);
        break;
      case 'replace':
        replace(root, path, clone(op.value));
        break;
      case 'move': {
        const from = typeof op.from === 'string' ? op.from : '';
        const value = take(root, from, 'move');
        add(root, path, value);
        break;
      }
      case 'copy': {
        const from = typeof op.from === 'string' ? op.from : '';
        const [con, key] = find(root, from);
        const value = con === undefined ? undefined : get(con, key);
        if (value === undefined)
          throw new JsonPatchError(
            `copy operation does not apply: doc is missing from path: ${from}: missing value`,
          );
        add(root, path, clone(value));
        break;
      }
      case 'test':
        test(root, path, op.value);
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${String(op.op)}: unknown object type`);
    }
  }
  return root.doc;
}

function clone(v: JsonValue | undefined): JsonValue {
  return v === undefined ? null : structuredClone(v);
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The container holding the last path token and that token; undefined when a parent is missing. */
function find(root: { doc: JsonValue }, path: string): [Container | undefined, string] {
  if (path === '') return [{ '': root.doc } as Record<string, JsonValue>, ''];
  const tokens = path.split('/').slice(1).map(unescape);
  const last = tokens.pop() ?? '';
  let node: JsonValue | undefined = root.doc;
  for (const t of tokens) {
    if (Array.isArray(node)) node = /^\d+$/.test(t) ? node[Number(t)] : undefined;
    else if (node !== null && typeof node === 'object') node = node[t];
    else node = undefined;
    if (node === undefined || node === null || typeof node !== 'object') return [undefined, last];
  }
  if (node === null || typeof node !== 'object') return [undefined, last];
  return [node, last];
}

function get(con: Container, key: string): JsonValue | undefined {
  if (Array.isArray(con)) return /^\d+$/.test(key) ? con[Number(key)] : undefined;
  return Object.prototype.hasOwnProperty.call(con, key) ? con[key] : undefined;
}

function index(con: JsonValue[], key: string, allowEnd: boolean): number {
  if (key === '-' && allowEnd) return con.length;
  const i = /^-?\d+$/.test(key) ? Number(key) : NaN;
  const max = allowEnd ? con.length : con.length - 1;
  if (Number.isNaN(i) || i < 0 || i > max)
    throw new JsonPatchError(`Unable to access invalid index: ${key}: invalid index referenced`);
  return i;
}

function add(root: { doc: JsonValue }, path: string, value: JsonValue): void {
  if (path === '') {
    root.doc = value;
    return;
  }
  const [con, key] = find(root, path);
  if (con === undefined)
    throw new JsonPatchError(`add operation does not apply: doc is missing path: "${path}": missing value`);
  if (Array.isArray(con)) {
    try {
      con.splice(index(con, key, true), 0, value);
    } catch (e) {
      throw new JsonPatchError(`error in add for path: '${path}': ${(e as Error).message}`);
    }
  } else con[key] = value;
}

function remove(root: { doc: JsonValue }, path: string): void {
  take(root, path, 'remove');
}

function take(root: { doc: JsonValue }, path: string, op: 'remove' | 'move'): JsonValue {
  const [con, key] = find(root, path);
  if (con === undefined)
    throw new JsonPatchError(
      `${op} operation does not apply: doc is missing ${op === 'move' ? 'from ' : ''}path: "${path}": missing value`,
    );
  if (Array.isArray(con)) {
    let i: number;
    try {
      i = index(con, key, false);
    } catch (e) {
      throw new JsonPatchError(`error in ${op} for path: '${path}': ${(e as Error).message}`);
    }
    return con.splice(i, 1)[0] ?? null;
  }
  if (!Object.prototype.hasOwnProperty.call(con, key))
    throw new JsonPatchError(
      `error in ${op} for path: '${path}': Unable to remove nonexistent key: ${key}: missing value`,
    );
  const value = con[key] ?? null;
  delete con[key];
  return value;
}

function replace(root: { doc: JsonValue }, path: string, value: JsonValue): void {
  if (path === '') {
    root.doc = value;
    return;
  }
  const [con, key] = find(root, path);
  if (con === undefined)
    throw new JsonPatchError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
  if (Array.isArray(con)) {
    const i = /^\d+$/.test(key) ? Number(key) : -1;
    if (i < 0 || i >= con.length)
      throw new JsonPatchError(
        `replace operation does not apply: doc is missing key: ${path}: missing value`,
      );
    con[i] = value;
  } else con[key] = value;
}

function test(root: { doc: JsonValue }, path: string, expected: JsonValue | undefined): void {
  const [con, key] = find(root, path);
  if (con === undefined)
    throw new JsonPatchError(`test operation does not apply: is missing path: ${path}: missing value`);
  const actual = get(con, key);
  if (JSON.stringify(canonical(actual ?? null)) !== JSON.stringify(canonical(expected ?? null)))
    throw new JsonPatchError(`testing value ${path} failed: test failed`);
}

function canonical(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(canonical);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k] as JsonValue)]),
    );
  return v;
}
