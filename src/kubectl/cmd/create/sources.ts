/**
 * The data sources of `create configmap` and `create secret generic`:
 * `--from-literal=key=value`, `--from-file=[key=]path` (a folder adds each
 * regular file in it) and `--from-env-file` (KEY=value lines), with
 * kubectl's checks and messages for bad keys and repeated keys.
 */

import type { CommandContext } from '../../command';
import { KubectlError } from '../../errors';

const keyPattern = /^[-._a-zA-Z0-9]+$/;

function checkKey(key: string): void {
  if (key.length > 253 || !keyPattern.test(key))
    throw new KubectlError(
      `error: "${key}" is not a valid key name for a ConfigMap: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
    );
}

function add(data: Map<string, string>, key: string, value: string, kind: string): void {
  checkKey(key);
  if (data.has(key))
    throw new KubectlError(
      `error: cannot add key "${key}", another key by that name already exists in Data for ${kind}`,
    );
  data.set(key, value);
}

export async function readSourcesData(ctx: CommandContext, kindName: string): Promise<Map<string, string>> {
  const data = new Map<string, string>();
  for (const literal of ctx.flags.strings('from-literal')) {
    const eq = literal.indexOf('=');
    if (eq <= 0) throw new KubectlError(`error: invalid literal source ${literal}, expected key=value`);
    let value = literal.slice(eq + 1);
    if (
      value.length >= 2 &&
      ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'")))
    )
      value = value.slice(1, -1);
    add(data, literal.slice(0, eq), value, kindName);
  }
  for (const source of ctx.flags.strings('from-file')) {
    const eq = source.indexOf('=');
    const key = eq >= 0 ? source.slice(0, eq) : undefined;
    const path = eq >= 0 ? source.slice(eq + 1) : source;
    if (key === '' || path === '') throw new KubectlError(`error: key names or file paths cannot be empty`);
    const listing = await ctx.io.files.list(path);
    if (listing !== undefined) {
      if (key !== undefined) throw new KubectlError(`error: cannot give a key name for a directory path`);
      for (const file of listing.sort()) {
        const text = await ctx.io.files.read(`${path.replace(/\/$/, '')}/${file}`);
        if (text !== undefined) add(data, file, text, kindName);
      }
      continue;
    }
    const text = await ctx.io.files.read(path);
    if (text === undefined) throw new KubectlError(`error: error reading ${path}: no such file or directory`);
    add(data, key ?? (path.split('/').pop() as string), text, kindName);
  }
  for (const envFile of ctx.flags.strings('from-env-file')) {
    const text = await ctx.io.files.read(envFile);
    if (text === undefined)
      throw new KubectlError(`error: error reading ${envFile}: no such file or directory`);
    for (const raw of text.split('\n')) {
      const line = raw.replace(/^\uFEFF/, '').trimStart();
      if (line === '' || line.startsWith('#')) continue;
      const eq = line.indexOf('=');
      if (eq < 0) add(data, line.trim(), '', kindName);
      else add(data, line.slice(0, eq), line.slice(eq + 1), kindName);
    }
  }
  return data;
}

export const sourceFlags = [
  { name: 'from-literal', type: 'stringArray' as const },
  { name: 'from-file', type: 'stringSlice' as const },
  { name: 'from-env-file', type: 'stringSlice' as const },
  { name: 'append-hash', type: 'bool' as const, noOptDefVal: 'true' },
];
