/**
 * A short run of the HTTP fuzzer (test/fuzz) against each store: a few
 * hundred seeded requests, none of which may answer 5xx (but a 504 for a
 * future resourceVersion), answer an error without a Status, or change
 * anything when it failed; lists must equal their pages. Long runs:
 * `npm run fuzz -- --n 100000 --seed S [--storage memory|dexie]`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { Fuzzer } from './fuzz/runner';

describe.each([['memory', 1] as const, ['dexie', 2] as const])(
  'HTTP fuzz (%s store, seed %i)',
  (storage, seed) => {
    let host: TestHost;
    let fuzzer: Fuzzer;
    beforeAll(async () => {
      host = await startTestHost({ storage });
      fuzzer = new Fuzzer(host);
      await fuzzer.seed();
    });
    afterAll(() => host.close());

    it('200 requests: no 5xx, every error a Status, failures change nothing, lists equal their pages', async () => {
      const report = await fuzzer.run({ seed, n: 200 });
      expect(report.failures).toEqual([]);
      expect(report.requests).toBe(200);
    }, 120_000);
  },
);
