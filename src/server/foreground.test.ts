import { afterEach, describe, expect, it, vi } from 'vitest';
import { ForegroundRequests } from './foreground';
import { awaitedLater } from '../../test/support/awaited-later';

describe('ForegroundRequests', () => {
  it('is quiet at once with nothing in flight', async () => {
    await expect(new ForegroundRequests().quiet()).resolves.toBeUndefined();
  });

  it('waits for the last request in flight to end', async () => {
    const f = new ForegroundRequests();
    const endA = f.begin();
    const endB = f.begin();
    let quiet = false;
    const waiting = awaitedLater(f.quiet(60_000).then(() => (quiet = true)));
    endA();
    endA(); // ending twice counts once
    await Promise.resolve();
    expect(quiet).toBe(false);
    endB();
    await waiting;
    expect(quiet).toBe(true);
  });

  it('stops waiting after maxWaitMs when requests never pause', async () => {
    const f = new ForegroundRequests();
    f.begin();
    await expect(f.quiet(5)).resolves.toBeUndefined();
  });

  it('settles only after a pause of the whole window, however many requests came before', async () => {
    const f = new ForegroundRequests();
    let settled = false;
    const waiting = awaitedLater(f.settled(40, 60_000).then(() => (settled = true)));
    // A burst: a request begins and ends every 10 ms, each gap shorter than the window.
    for (let i = 0; i < 5; i++) {
      const end = f.begin();
      await new Promise((resolve) => setTimeout(resolve, 10));
      end();
      expect(settled).toBe(false);
    }
    await waiting;
    expect(settled).toBe(true);
  });

  it('stops waiting for a pause after maxWaitMs', async () => {
    const f = new ForegroundRequests();
    f.begin();
    await expect(f.settled(60_000, 5)).resolves.toBeUndefined();
  });

  it('runs after a pause of the whole window, or after maxWaitMs when requests never pause', async () => {
    const f = new ForegroundRequests();
    let ran = 0;
    f.afterPause(40, 60_000, () => ran++);
    // A burst: a request begins and ends every 10 ms, each gap shorter than the window.
    for (let i = 0; i < 5; i++) {
      const end = f.begin();
      await new Promise((resolve) => setTimeout(resolve, 10));
      end();
      expect(ran).toBe(0);
    }
    while (ran === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ran).toBe(1);
    // A request that never ends: the bound runs it.
    f.begin();
    let bounded = false;
    f.afterPause(60_000, 5, () => (bounded = true));
    while (!bounded) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(bounded).toBe(true);
  });

  it('arms no timer per request for a run waiting for a pause: one look per gap, one bound', () => {
    vi.useFakeTimers();
    try {
      const f = new ForegroundRequests();
      const armed = vi.spyOn(globalThis, 'setTimeout');
      let ran = 0;
      // Overlapping requests (16 in flight): nothing but the bound is armed, however many come and go.
      const ends = [f.begin(), f.begin()];
      f.afterPause(5, 100, () => ran++);
      expect(armed).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 50; i++) {
        ends.push(f.begin());
        ends.shift()?.();
        vi.advanceTimersByTime(1);
      }
      expect(armed).toHaveBeenCalledTimes(1);
      expect(ran).toBe(0);
      // The bound runs it although the requests never paused.
      vi.advanceTimersByTime(50);
      expect(ran).toBe(1);
      // Sequential requests, gaps shorter than the window: one look per gap (armed after the answer), no more.
      armed.mockClear();
      f.afterPause(5, 100, () => ran++);
      for (const end of ends) end();
      for (let i = 0; i < 10; i++) {
        vi.advanceTimersByTime(2);
        const end = f.begin();
        vi.advanceTimersByTime(2);
        end();
      }
      expect(ran).toBe(1);
      expect(armed.mock.calls.length).toBeLessThanOrEqual(12);
      // A whole window's pause runs it.
      vi.advanceTimersByTime(5);
      expect(ran).toBe(2);
      armed.mockRestore();
    } finally {
      vi.useRealTimers();
    }
  });
  describe('a page announced as coming', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('holds what waits for a pause until the page has asked and paused, beyond their own bounds', async () => {
      vi.useFakeTimers();
      const f = new ForegroundRequests();
      f.pageComing(250, 1000);
      let ran = 0;
      let settled = false;
      let quiet = false;
      f.afterPause(5, 100, () => ran++);
      void f.settled(5, 100).then(() => (settled = true));
      void f.quiet(100).then(() => (quiet = true));
      // The navigation: nothing asked for 200 ms, twice the waiters' own bound.
      await vi.advanceTimersByTimeAsync(200);
      expect([ran, settled, quiet]).toEqual([0, false, false]);
      // The page's first round, then its second after a gap shorter than the window.
      const first = f.begin();
      await vi.advanceTimersByTimeAsync(20);
      first();
      await vi.advanceTimersByTimeAsync(100);
      const second = f.begin();
      await vi.advanceTimersByTimeAsync(30);
      second();
      await vi.advanceTimersByTimeAsync(240);
      expect([ran, settled, quiet]).toEqual([0, false, false]);
      // A whole window's pause after the last answer: the page's first rounds are over.
      await vi.advanceTimersByTimeAsync(20);
      expect([ran, settled, quiet]).toEqual([1, true, true]);
      await vi.advanceTimersByTimeAsync(5000);
      expect(ran).toBe(1);
    });

    it('is loading until its first rounds are over', async () => {
      vi.useFakeTimers();
      const f = new ForegroundRequests();
      expect(f.pageLoading()).toBeUndefined();
      f.pageComing(250, 1000);
      let loaded = false;
      void f.pageLoading()?.then(() => (loaded = true));
      f.begin()();
      await vi.advanceTimersByTimeAsync(249);
      expect(loaded).toBe(false);
      expect(f.pageLoading()).toBeDefined();
      await vi.advanceTimersByTimeAsync(2);
      expect(loaded).toBe(true);
      expect(f.pageLoading()).toBeUndefined();
    });

    it('holds them no longer than its bound when the page never asks', async () => {
      vi.useFakeTimers();
      const f = new ForegroundRequests();
      f.pageComing(250, 1000);
      let ran = 0;
      f.afterPause(5, 100, () => ran++);
      await vi.advanceTimersByTimeAsync(995);
      expect(ran).toBe(0);
      await vi.advanceTimersByTimeAsync(10);
      expect(ran).toBe(1);
      // Over: a later wait is the usual one.
      f.afterPause(5, 100, () => ran++);
      await vi.advanceTimersByTimeAsync(5);
      expect(ran).toBe(2);
    });

    it('holds them no longer than its bound when the page never pauses', async () => {
      vi.useFakeTimers();
      const f = new ForegroundRequests();
      f.pageComing(250, 1000);
      f.begin();
      let settled = false;
      void f.settled(5, 100).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(995);
      expect(settled).toBe(false);
      // The page's bound, past the waiter's own: it waits no more.
      await vi.advanceTimersByTimeAsync(10);
      expect(settled).toBe(true);
    });

    it('starts its bound again when announced again', async () => {
      vi.useFakeTimers();
      const f = new ForegroundRequests();
      f.pageComing(250, 1000);
      let ran = 0;
      f.afterPause(5, 100, () => ran++);
      await vi.advanceTimersByTimeAsync(600);
      f.pageComing(250, 1000);
      await vi.advanceTimersByTimeAsync(995);
      expect(ran).toBe(0);
      await vi.advanceTimersByTimeAsync(10);
      expect(ran).toBe(1);
    });
  });
});
