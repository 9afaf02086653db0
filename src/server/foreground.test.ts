import { describe, expect, it } from 'vitest';
import { ForegroundRequests } from './foreground';

describe('ForegroundRequests', () => {
  it('is quiet at once with nothing in flight', async () => {
    await expect(new ForegroundRequests().quiet()).resolves.toBeUndefined();
  });

  it('waits for the last request in flight to end', async () => {
    const f = new ForegroundRequests();
    const endA = f.begin();
    const endB = f.begin();
    let quiet = false;
    const waiting = f.quiet(60_000).then(() => (quiet = true));
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
});
