import { describe, expect, it } from 'vitest';
import { runNow, runSliced } from '../cooperative';
import { knownToBeWide, slicedAbove } from '../json';
import { parseJsonWork } from './json-parse-sliced';

function wide(n: number, value: (i: number) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) out[i % 9 === 0 ? String(i) : `k${i} "q" \\ ${i}`] = value(i);
  return out;
}

const texts: [string, string][] = [
  ['a small object', '{"a":1,"b":[true,null,"x"]}'],
  ['scalars', ' 12 '],
  [
    'a wide ConfigMap, compact',
    JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'w' }, data: wide(20_000, (i) => `v${i}`) }),
  ],
  [
    'wide maps of objects in arrays, indented',
    JSON.stringify(
      {
        list: Array.from({ length: 3000 }, (_, i) => ({ i, m: wide(5, String) })),
        m: wide(5000, (i) => ({ i })),
      },
      null,
      2,
    ),
  ],
  [
    'repeated keys across runs and __proto__',
    `{"a":1,${Array.from({ length: 8000 }, (_, i) => `"k${i}":"${'x'.repeat(8)}"`).join(',')},"a":2,"__proto__":{"p":1},"k3":"last"}`,
  ],
];

describe('parseJsonWork', () => {
  for (const [name, text] of texts)
    it(`parses ${name} as JSON.parse does`, async () => {
      const expected: unknown = JSON.parse(text);
      const now = runNow(parseJsonWork(text));
      expect(JSON.stringify(now)).toBe(JSON.stringify(expected));
      expect(Object.getPrototypeOf(now)).toBe(Object.getPrototypeOf(expected));
      expect(JSON.stringify(await runSliced(parseJsonWork(text)))).toBe(JSON.stringify(expected));
    });

  const bad = [
    '{"a":1,}',
    '{"a" 1}',
    '[1,2',
    `{"a":[${'1,'.repeat(20_000)}]`,
    '{"a":1} x',
    `{"w":"${'y'.repeat(40_000)}`,
  ];
  for (const text of bad)
    it(`throws on ${text.slice(0, 20)}…, as JSON.parse does`, () => {
      expect(() => JSON.parse(text)).toThrow();
      expect(() => runNow(parseJsonWork(text))).toThrow();
    });

  it('records the wide containers it steps into, and only those, as wide', () => {
    const text = JSON.stringify({
      metadata: { name: 'w' },
      data: wide(slicedAbove + 1, String),
      list: Array.from({ length: slicedAbove + 1 }, (_, i) => `item ${i} of a long list`),
      narrow: wide(slicedAbove, String),
    });
    const value = runNow(parseJsonWork(text)) as Record<string, object>;
    // The size probes before a write's passes stop at a wide map instead of listing its keys again.
    expect(
      [value, value['metadata'], value['data'], value['list'], value['narrow']].map((v) =>
        knownToBeWide(v as object),
      ),
    ).toEqual([false, false, true, true, false]);
  });
});
