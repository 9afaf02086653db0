/** A shared computation runs once while it succeeds, and again after a failure. */

import { describe, expect, it } from 'vitest';
import { onceAsync } from './once-async';

describe('onceAsync', () => {
  it('shares one success and retries after a failure', async () => {
    let calls = 0;
    const get = onceAsync(async () => {
      calls++;
      if (calls === 1) throw new Error('first fails');
      return calls;
    });
    const [a, b] = await Promise.allSettled([get(), get()]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(calls).toBe(1);
    expect(await get()).toBe(2);
    expect(await get()).toBe(2);
    expect(calls).toBe(2);
  });
});
