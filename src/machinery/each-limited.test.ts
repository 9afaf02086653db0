// eachLimited: bounded concurrency, every task run, the first failure thrown at the end.
import { describe, expect, it } from 'vitest';
import { eachLimited } from './each-limited';

describe('eachLimited', () => {
  it('runs every item with at most `width` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await eachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      done.push(n);
      inFlight--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('runs the rest after a failure and throws the first failure at the end', async () => {
    const done: number[] = [];
    await expect(
      eachLimited([1, 2, 3, 4], 1, async (n) => {
        if (n === 2) throw new Error('two');
        if (n === 3) throw new Error('three');
        done.push(n);
      }),
    ).rejects.toThrow('two');
    expect(done).toEqual([1, 4]);
  });

  it('does nothing for no items', async () => {
    await expect(eachLimited([], 4, () => Promise.reject(new Error('never')))).resolves.toBeUndefined();
  });
});
