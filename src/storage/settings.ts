/**
 * Settings a server generates on first start (signing keys, the continue-token key): read when they exist, else
 * generated and stored so that every replica sharing the store ends up with the first one stored — atomically
 * where the backend can (`initSetting`), read-then-write otherwise. And the start's reads of several settings
 * in one read of the store (`readSettings`), where a backend can read them together.
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
  const read = new Map<string, unknown>(names.map((name, i) => [name, values[i]]));
  return async <T>(name: string): Promise<T | undefined> => {
    if (!read.has(name)) return storage.getSetting<T>(name);
    const value = read.get(name) as T | undefined;
    read.delete(name);
    return value;
  };
}
