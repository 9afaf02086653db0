import { describe, expect, it } from 'vitest';
import { runNow, runSliced } from './cooperative';
import { jsonTextWork } from './json-text';

function wideMap(n: number, value: (i: number) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) out[i % 7 === 0 ? String(i) : `k${i}`] = value(i);
  return out;
}

const cases: [string, unknown][] = [
  ['a scalar', 'x'],
  ['a small object', { a: 1, b: [1, 2, { c: null }], d: {} }],
  [
    'a wide ConfigMap with integer-like keys',
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' }, data: wideMap(10_000, (i) => `v${i}`) },
  ],
  [
    'wide maps inside wide maps, arrays, undefined and odd keys',
    {
      a: wideMap(3000, (i) => (i % 5 === 0 ? { x: [i, null, undefined] } : i % 3 === 0 ? undefined : i)),
      list: Array.from({ length: 5000 }, (_, i) =>
        i % 4 === 0 ? undefined : { i, deep: wideMap(3, String) },
      ),
      ['__proto__']: 'kept',
      empty: [],
      when: new Date(0),
    },
  ],
];

describe('jsonTextWork', () => {
  for (const [name, value] of cases)
    it(`writes ${name} as JSON.stringify does, compact and indented`, async () => {
      expect(runNow(jsonTextWork(value, false))).toBe(JSON.stringify(value));
      expect(runNow(jsonTextWork(value, true))).toBe(JSON.stringify(value, null, 2));
      expect(await runSliced(jsonTextWork(value, true))).toBe(JSON.stringify(value, null, 2));
    });
});
