// The work queue's timers, on fake timers: one pending timer per key (the
// earliest asked for), none left after stop, and a failing key backing off
// per key up to 1000 s.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkQueue, type Reconcile } from './work-queue';

const day = 24 * 60 * 60 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the queued microtasks and the reconciles they start run. */
async function settle(queue: WorkQueue): Promise<void> {
  await vi.advanceTimersByTimeAsync(0);
  await queue.idle();
}

describe('work queue timers', () => {
  it('keeps one timer per key however often a reconcile asks to come back', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue(async (key) => {
      seen.push(key);
      return { requeueAfterMs: day };
    });
    for (let i = 0; i < 5; i++) {
      queue.add('a');
      await settle(queue);
    }
    queue.add('b');
    await settle(queue);
    expect(seen).toEqual(['a', 'a', 'a', 'a', 'a', 'b']);
    expect(vi.getTimerCount()).toBe(2);
    queue.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps the earliest deadline: an earlier request replaces the timer, a later one does not', async () => {
    const calls: number[] = [];
    const queue = new WorkQueue(async () => {
      calls.push(Date.now());
    });
    const start = Date.now();
    queue.addAfter('k', 10_000);
    queue.addAfter('k', 1_000);
    queue.addAfter('k', 5_000);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await queue.idle();
    expect(calls).toEqual([start + 1_000]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(calls).toHaveLength(1);
    queue.stop();
  });

  it('backs a failing key off from 5 ms, doubling, to at most 1000 s', async () => {
    const calls: number[] = [];
    const failing: Reconcile = async () => {
      calls.push(Date.now());
      throw new Error('permanent');
    };
    const queue = new WorkQueue(failing);
    const start = Date.now();
    queue.add('k');
    await settle(queue);
    // 5 ms · 2^n reaches the cap after 18 failures; run well past it.
    for (let i = 0; i < 25; i++) await vi.advanceTimersToNextTimerAsync();
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] ?? start));
    expect(gaps.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(gaps.slice(-3)).toEqual([1_000_000, 1_000_000, 1_000_000]);
    expect(vi.getTimerCount()).toBe(1);
    queue.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('takes the cap from its options', async () => {
    const calls: number[] = [];
    const queue = new WorkQueue(
      async () => {
        calls.push(Date.now());
        throw new Error('permanent');
      },
      { baseDelayMs: 1, maxDelayMs: 4 },
    );
    queue.add('k');
    await settle(queue);
    for (let i = 0; i < 5; i++) await vi.advanceTimersToNextTimerAsync();
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] ?? 0));
    expect(gaps).toEqual([1, 2, 4, 4, 4]);
    queue.stop();
  });
});
