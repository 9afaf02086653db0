/**
 * Settings a server generates on first start (signing keys, the continue-token key): read when they exist, else
 * generated and stored so that every replica sharing the store ends up with the first one stored — atomically
 * where the backend can (`initSetting`), read-then-write otherwise.
 */

import type { Storage } from './types';

export async function initialSetting<T>(
  storage: Storage,
  name: string,
  make: () => Promise<T> | T,
): Promise<T> {
  const saved = await storage.getSetting<T>(name);
  if (saved !== undefined) return saved;
  const value = await make();
  if (storage.initSetting !== undefined) return storage.initSetting(name, value);
  await storage.setSetting(name, value);
  return value;
}
