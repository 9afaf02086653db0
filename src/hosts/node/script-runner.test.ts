import { afterAll, describe, expect, it } from 'vitest';
import { nodeScriptRunner } from './script-runner';

const runner = nodeScriptRunner();
afterAll(() => runner.close());
const input = JSON.stringify({
  apiVersion: 'admission.orch.io/v1',
  kind: 'AdmissionReview',
  request: { uid: 'u' },
});

describe('nodeScriptRunner', () => {
  const cases: { name: string; source: string; timeoutMs?: number; want: unknown }[] = [
    {
      name: 'returns JSON of the result',
      source: '(review) => ({ allowed: true, uid: review.request.uid })',
      want: { kind: 'returned', text: '{"allowed":true,"uid":"u"}', raw: false },
    },
    {
      name: 'async functions are awaited',
      source: 'async () => ({ allowed: false })',
      want: { kind: 'returned', text: '{"allowed":false}', raw: false },
    },
    {
      name: 'a string goes back raw',
      source: '() => "nope"',
      want: { kind: 'returned', text: 'nope', raw: true },
    },
    {
      name: 'a throw is reported',
      source: '() => { throw new TypeError("boom") }',
      want: { kind: 'threw', message: 'TypeError: boom' },
    },
    {
      name: 'no require in reach',
      source: '() => require("fs")',
      want: { kind: 'threw', message: 'ReferenceError: require is not defined' },
    },
    {
      name: 'no process in reach',
      source: '() => process.exit(1)',
      want: { kind: 'threw', message: 'ReferenceError: process is not defined' },
    },
    {
      name: 'an infinite loop is killed at the timeout',
      source: '() => { for (;;) {} }',
      timeoutMs: 300,
      want: { kind: 'timeout' },
    },
    {
      name: 'a promise that never settles times out',
      source: '() => new Promise(() => {})',
      timeoutMs: 300,
      want: { kind: 'timeout' },
    },
    {
      name: 'not a function',
      source: '42',
      want: { kind: 'threw', message: 'TypeError: the backend source is not a function' },
    },
  ];
  for (const c of cases)
    it(c.name, async () => {
      expect(await runner.run({ source: c.source, input, timeoutMs: c.timeoutMs ?? 5000 })).toEqual(c.want);
    });
});

describe('nodeScriptRunner warm workers', () => {
  const run = (r: ReturnType<typeof nodeScriptRunner>, source: string, timeoutMs = 5000) =>
    r.run({ source, input, timeoutMs });

  it('keeps no state between calls on a reused worker', async () => {
    const r = nodeScriptRunner({ warmWorkers: 1 });
    try {
      const cases = [
        { source: '() => { globalThis.leak = 1; Object.prototype.polluted = 1; return "set" }', want: 'set' },
        { source: '() => typeof leak + "," + typeof ({}).polluted', want: 'undefined,undefined' },
      ];
      for (const c of cases)
        expect(await run(r, c.source)).toEqual({ kind: 'returned', text: c.want, raw: true });
    } finally {
      await r.close();
    }
  });

  it('answers after a worker was killed for looping or left work spinning', async () => {
    const r = nodeScriptRunner({ warmWorkers: 1 });
    try {
      const cases: { source: string; timeoutMs?: number; want: unknown }[] = [
        { source: '() => { for (;;) {} }', timeoutMs: 300, want: { kind: 'timeout' } },
        { source: '() => "after a loop"', want: { kind: 'returned', text: 'after a loop', raw: true } },
        {
          source: '() => { (async () => { for (;;) await null })(); return "spun" }',
          // The answer must come however loaded the machine is; the spinning worker is dropped when the test closes.
          want: { kind: 'returned', text: 'spun', raw: true },
        },
        { source: '() => "after a spinner"', want: { kind: 'returned', text: 'after a spinner', raw: true } },
        { source: '() => new Promise(() => {})', timeoutMs: 300, want: { kind: 'timeout' } },
        { source: '() => "after a hang"', want: { kind: 'returned', text: 'after a hang', raw: true } },
      ];
      for (const c of cases) expect(await run(r, c.source, c.timeoutMs)).toEqual(c.want);
    } finally {
      await r.close();
    }
  });

  it('runs concurrent calls side by side, beyond the warm count', async () => {
    const r = nodeScriptRunner({ warmWorkers: 1 });
    try {
      const outcomes = await Promise.all(
        [1, 2, 3].map((n) => run(r, `async () => { await null; return "${n}" }`)),
      );
      expect(outcomes.map((o) => (o.kind === 'returned' ? o.text : o.kind))).toEqual(['1', '2', '3']);
    } finally {
      await r.close();
    }
  });
});
