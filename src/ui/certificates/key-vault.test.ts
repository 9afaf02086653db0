import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepKey, keptKeys, keyFor } from './key-vault';
import { memoryStorage } from '../lib/fixtures.test-support';

afterEach(() => vi.unstubAllGlobals());

describe('key vault', () => {
  it('keeps the newest keys only, in memory and in the tab storage, and a key kept again counts as new', () => {
    const storage = memoryStorage();
    vi.stubGlobal('sessionStorage', storage);
    keepKey('request-0', 'key-0');
    for (let i = 1; i < keptKeys; i++) keepKey(`request-${i}`, `key-${i}`);
    keepKey('request-0', 'key-0 again');
    keepKey(`request-${keptKeys}`, 'newest');
    expect(keyFor('request-0')).toBe('key-0 again');
    expect(keyFor('request-1')).toBeUndefined();
    expect(keyFor(`request-${keptKeys}`)).toBe('newest');
    expect(keyFor(undefined)).toBeUndefined();
    const stored = JSON.parse(storage.getItem('orch-sandbox.csr-keys') ?? '{}') as Record<string, string>;
    expect(Object.keys(stored)).toHaveLength(keptKeys);
    expect(stored['request-1']).toBeUndefined();
    expect(stored['request-0']).toBe('key-0 again');
  });
});
