/**
 * Reading `-f` sources as kubectl's resource builder does: a file, every
 * `.json`/`.yaml`/`.yml` file of a folder (in name order; `-R` descends),
 * or standard input (`-`); YAML streams split at `---`, YAML read with
 * YAML 1.1's rules as go-yaml reads it (`yes` is a boolean), empty
 * documents skipped, and `List` documents expanded into their items.
 */

import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../api/meta';
import type { KubectlIO } from '../io';
import { KubectlError } from '../errors';

export interface SourcedObject {
  object: KubeObject;
  /** The name kubectl shows in messages: the path, or `STDIN`. */
  source: string;
}

const extensions = ['.json', '.yaml', '.yml'];

export async function readSources(
  io: KubectlIO,
  filenames: string[],
  recursive: boolean,
): Promise<SourcedObject[]> {
  const out: SourcedObject[] = [];
  for (const name of filenames) {
    if (name === '-') {
      out.push(...decodeStream(await io.stdin(), 'STDIN'));
      continue;
    }
    if (/^https?:\/\//.test(name))
      throw new KubectlError(`error: unable to read URL "${name}": URLs are not supported here`);
    const listing = await io.files.list(name);
    if (listing !== undefined) {
      out.push(...(await readFolder(io, name, recursive)));
      continue;
    }
    const text = await io.files.read(name);
    if (text === undefined) throw new KubectlError(`error: the path "${name}" does not exist`);
    out.push(...decodeStream(text, name));
  }
  return out;
}

async function readFolder(io: KubectlIO, dir: string, recursive: boolean): Promise<SourcedObject[]> {
  const out: SourcedObject[] = [];
  const entries = ((await io.files.list(dir)) ?? []).sort();
  for (const entry of entries) {
    const path = dir.endsWith('/') ? `${dir}${entry}` : `${dir}/${entry}`;
    if ((await io.files.list(path)) !== undefined) {
      if (recursive) out.push(...(await readFolder(io, path, recursive)));
      continue;
    }
    if (!extensions.some((e) => entry.endsWith(e))) continue;
    const text = await io.files.read(path);
    if (text !== undefined) out.push(...decodeStream(text, path));
  }
  return out;
}

/** The objects of one YAML or JSON stream. */
export function decodeStream(text: string, source: string): SourcedObject[] {
  const out: SourcedObject[] = [];
  const trimmed = text.trimStart();
  let values: unknown[];
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      values = [JSON.parse(text)];
    } catch {
      values = yamlValues(text, source);
    }
  } else values = yamlValues(text, source);
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new KubectlError(
        `error: error validating "${source}": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false`,
      );
    const object = value as KubeObject & { items?: unknown[] };
    if (object.kind === undefined || object.kind === '')
      throw new KubectlError(
        `error: unable to decode "${source}": Object 'Kind' is missing in '${JSON.stringify(value)}'`,
      );
    if (object.apiVersion === undefined || object.apiVersion === '')
      throw new KubectlError(
        `error: unable to decode "${source}": Object 'apiVersion' is missing in '${JSON.stringify(value)}'`,
      );
    if (object.kind.endsWith('List') && Array.isArray(object.items)) {
      for (const item of object.items) out.push({ object: item as KubeObject, source });
      continue;
    }
    out.push({ object, source });
  }
  return out;
}

function yamlValues(text: string, source: string): unknown[] {
  const docs = parseAllDocuments(text, { version: '1.1', merge: true, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const values: unknown[] = [];
  for (const doc of list) {
    const error = doc.errors[0];
    if (error !== undefined) {
      let line = (error.linePos?.[0]?.line ?? 1) as number;
      const message = goYamlMessage(error.message);
      // go-yaml names the line where an unclosed flow collection opened.
      if (message.startsWith("did not find expected ','")) line = openFlowLine(text) ?? line;
      throw new KubectlError(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: line ${line}: ${message}`,
      );
    }
    values.push(doc.toJS({ maxAliasCount: 1000 }));
  }
  return values;
}

function openFlowLine(text: string): number | undefined {
  const stack: number[] = [];
  text.split('\n').forEach((l, i) => {
    for (const c of l.replace(/#.*$/, '')) {
      if (c === '[' || c === '{') stack.push(i + 1);
      else if ((c === ']' || c === '}') && stack.length > 0) stack.pop();
    }
  });
  return stack[stack.length - 1];
}

function goYamlMessage(message: string): string {
  const first = message.split('\n')[0] ?? message;
  if (/flow sequence/i.test(first) || /\]/.test(first)) return "did not find expected ',' or ']'";
  if (/flow map|flow mapping/i.test(first)) return "did not find expected ',' or '}'";
  if (/indent/i.test(first)) return 'did not find expected key';
  return first.replace(/ at line \d+, column \d+:?$/, '').toLowerCase();
}
