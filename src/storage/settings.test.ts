// Generated settings: callers racing on an empty store all get the first value stored, with a backend that
// stores atomically (the memory store) and, falling back to read-then-write, with one that does not; a new store's
// names answered as missing without a read, and only once.
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from './memory/memory-storage';
import { initialSetting, initialSettings, missingSettings, readSettings } from './settings';
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

describe('initialSettings', () => {
  it('keeps the first value stored when replicas start together on an empty store', async () => {
    const storage = createMemoryStorage();
    let made = 0;
    const readers = await Promise.all(
      Array.from({ length: 3 }, async () =>
        initialSettings(storage, await readSettings(storage, ['key']), { key: () => ({ n: ++made }) }),
      ),
    );
    const values = await Promise.all(readers.map((read) => read<{ n: number }>('key')));
    expect(new Set(values.map((v) => v?.n)).size).toBe(1);
    expect(await storage.getSetting('key')).toEqual(values[0]);
  });

  it('falls back to one call per setting on a backend without initSettings', async () => {
    const memory = createMemoryStorage();
    await memory.setSetting('kept', 'theirs');
    const plain = Object.create(memory) as Storage;
    Object.defineProperty(plain, 'initSettings', { value: undefined });
    Object.defineProperty(plain, 'initSetting', { value: undefined });
    const read = await initialSettings(
      plain,
      (name) => memory.getSetting(name),
      { kept: () => 'mine', fresh: () => 'generated' },
      { label: 'set' },
    );
    expect(await read('kept')).toBe('theirs');
    expect(await read('fresh')).toBe('generated');
    const stored = await Promise.all(['kept', 'fresh', 'label'].map((name) => memory.getSetting(name)));
    expect(stored).toEqual(['theirs', 'generated', 'set']);
  });
});

describe('missingSettings', () => {
  it('answers each name once as missing, then reads the store; a generated one still keeps what was stored first', async () => {
    const storage = createMemoryStorage();
    const read = missingSettings(storage, ['key', 'other']);
    // Stored by another writer after the store was taken for new: kept by initialSettings, seen by a second read.
    await storage.setSetting('key', 'theirs');
    await storage.setSetting('other', 'set');
    const start = await initialSettings(storage, read, { key: () => 'mine' });
    expect(await start('key')).toBe('theirs');
    expect(await read('other')).toBeUndefined();
    expect(await read('other')).toBe('set');
    expect(await read('unnamed')).toBeUndefined();
  });
});
