// Generated settings: callers racing on an empty store all get the first value stored, with a backend that
// stores atomically (the memory store) and, falling back to read-then-write, with one that does not.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from './memory/memory-storage';
import { initialSetting } from './settings';
import type { Storage } from './types';

describe('initialSetting', () => {
  it('gives every racing caller the first value stored', async () => {
    const storage = createMemoryStorage();
    let made = 0;
    const values = await Promise.all(
      Array.from({ length: 5 }, () => initialSetting(storage, 'key', async () => ({ n: ++made }))),
    );
    expect(made).toBe(5);
    expect(new Set(values.map((v) => v.n)).size).toBe(1);
    expect(await storage.getSetting('key')).toEqual(values[0]);
    // Once stored, nothing is generated again.
    expect(await initialSetting(storage, 'key', () => ({ n: 99 }))).toEqual(values[0]);
  });

  it('falls back to read-then-write on a backend without initSetting', async () => {
    const memory = createMemoryStorage();
    // The memory store's methods, less initSetting.
    const plain = Object.create(memory) as Storage;
    Object.defineProperty(plain, 'initSetting', { value: undefined });
    expect(await initialSetting(plain, 'other', () => 'generated')).toBe('generated');
    expect(await memory.getSetting('other')).toBe('generated');
  });
});
