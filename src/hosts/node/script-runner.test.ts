import { describe, expect, it } from 'vitest';
import { nodeScriptRunner } from './script-runner';

const runner = nodeScriptRunner();
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
