import { describe, expect, it } from 'vitest';
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
});
