/**
 * Settings a server generates on first start (signing keys, the continue-token key): read when they exist, else
 * generated and stored so that every replica sharing the store ends up with the first one stored — atomically
 * where the backend can (`initSetting`), read-then-write otherwise. And the start's reads of several settings
 * in one read of the store (`readSettings`), where a backend can read them together, or none at all when the
 * store is new (`missingSettings`).
 */

import type { Storage } from './types';

/** Reads one setting: `Storage.getSetting`, or a reader that serves some names from an earlier read. */
export type SettingReader = <T>(name: string) => Promise<T | undefined>;

export async function initialSetting<T>(
  storage: Storage,
  name: string,
  make: () => Promise<T> | T,
  read: SettingReader = (n) => storage.getSetting(n),
): Promise<T> {
  const saved = await read<T>(name);
  if (saved !== undefined) return saved;
  const value = await make();
  if (storage.initSetting !== undefined) return storage.initSetting(name, value);
  await storage.setSetting(name, value);
  return value;
}

/**
 * Reads `names` together — one transaction where the backend has `getSettings`, else concurrent reads — and
 * returns a reader that answers each of them once from that read (as read then: a setting another replica
 * writes afterwards is as if written just after it) and every other read from the store. A name's second read
 * goes to the store, so whoever reads a setting again later sees what is stored then.
 */
export async function readSettings(storage: Storage, names: readonly string[]): Promise<SettingReader> {
  const values = await (storage.getSettings !== undefined
    ? storage.getSettings(names)
    : Promise.all(names.map((name) => storage.getSetting(name))));
  return answeredOnce(storage, names, values);
}

/**
 * `readSettings` for a store that holds no setting — one this start's own open created
 * (`Storage.createdByOpen`) — without the read that could only find each of `names` missing: each is answered
 * once as missing, and every other read from the store.
 */
export function missingSettings(storage: Storage, names: readonly string[]): SettingReader {
  return answeredOnce(storage, names, []);
}

function answeredOnce(storage: Storage, names: readonly string[], values: readonly unknown[]): SettingReader {
  const read = new Map<string, unknown>(names.map((name, i) => [name, values[i]]));
  return async <T>(name: string): Promise<T | undefined> => {
    if (!read.has(name)) return storage.getSetting<T>(name);
    const value = read.get(name) as T | undefined;
    read.delete(name);
    return value;
  };
}

/**
 * `initialSetting` for several names at once, after a start's `readSettings`: the names `read` finds missing
 * are generated (`make`), and stored together with `set`'s values that differ from what `read` found, in one
 * write of the store where the backend can (`initSettings`: a fresh store's start writes one transaction
 * instead of one per setting, in sequence), each keeping what another replica stored first, as
 * `initialSetting` does. Returns a reader that answers each of these names once with what is stored now (a name
 * the read found is answered as read), and every other read as `read` does.
 */
export async function initialSettings(
  storage: Storage,
  read: SettingReader,
  make: Readonly<Record<string, () => unknown>>,
  set: Readonly<Record<string, unknown>> = {},
): Promise<SettingReader> {
  const answers = new Map<string, unknown>();
  const inits: [string, unknown][] = [];
  for (const [name, generate] of Object.entries(make)) {
    const saved = await read(name);
    if (saved !== undefined) answers.set(name, saved);
    else inits.push([name, generate()]);
  }
  const sets: [string, unknown][] = [];
  for (const [name, value] of Object.entries(set)) {
    if ((await read(name)) !== value) sets.push([name, value]);
    answers.set(name, value);
  }
  if (inits.length > 0 || sets.length > 0) {
    const stored =
      storage.initSettings !== undefined
        ? await storage.initSettings(inits, sets)
        : await Promise.all([
            ...sets.map(([name, value]) => storage.setSetting(name, value)),
            ...inits.map(([name, value]) =>
              storage.initSetting !== undefined
                ? storage.initSetting(name, value)
                : storage.setSetting(name, value).then(() => value),
            ),
          ]).then((values) => values.slice(sets.length));
    inits.forEach(([name], i) => answers.set(name, stored[i]));
  }
  return async <T>(name: string): Promise<T | undefined> => {
    if (!answers.has(name)) return read<T>(name);
    const value = answers.get(name) as T | undefined;
    answers.delete(name);
    return value;
  };
}
