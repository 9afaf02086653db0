// The take-once store: each value once to its key and version, mismatched takers leave it, untaken ones expire.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TakeOnce } from './take-once';

describe('TakeOnce', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands a value once, to a taker of its key and version; looking does not take', () => {
    const store = new TakeOnce<string>(1000);
    store.put('a', 'A', 1);
    expect(store.peek('a', 1)).toBe('A');
    expect(store.peek('a', 1)).toBe('A');
    expect(store.take('a', 1)).toBe('A');
    expect(store.take('a', 1)).toBeUndefined();
    expect(store.peek('a', 1)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it('leaves a value for its rightful taker when the key or the version does not match', () => {
    const store = new TakeOnce<string>(1000);
    store.put('a', 'A', 1);
    expect(store.take('a', 2)).toBeUndefined();
    expect(store.take('b', 1)).toBeUndefined();
    expect(store.peek('a', 2)).toBeUndefined();
    expect(store.peek('a', 1)).toBe('A');
    expect(store.size()).toBe(1);
    expect(store.take('a', 1)).toBe('A');
  });

  it('drops a value nobody takes within its time to live, mismatched takers or not', () => {
    const store = new TakeOnce<string>(1000);
    store.put('a', 'A', 1);
    store.take('a', 2);
    vi.advanceTimersByTime(999);
    expect(store.peek('a', 1)).toBe('A');
    vi.advanceTimersByTime(1);
    expect(store.take('a', 1)).toBeUndefined();
    expect(store.size()).toBe(0);
  });

  it('replaces what a key held, with a time to live of its own; clear drops everything', () => {
    const store = new TakeOnce<string>(1000);
    store.put('a', 'old', 1);
    vi.advanceTimersByTime(600);
    store.put('a', 'new', 2);
    expect(store.take('a', 1)).toBeUndefined();
    // The first value's timer does not drop the second.
    vi.advanceTimersByTime(600);
    expect(store.peek('a', 2)).toBe('new');
    vi.advanceTimersByTime(400);
    expect(store.peek('a', 2)).toBeUndefined();
    store.put('a', 'A', 1);
    store.put('b', 'B', 1);
    store.clear();
    expect(store.size()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
