// A list by name's seeks (native-list.ts): which key can come next, and a read over sorted keys in memory
// that finds exactly what a read of every key finds, reading few keys where namespaces hold many.
import { describe, expect, it } from 'vitest';
import { inRange, type KeyRange } from '../keys';
import type { ObjectRow } from './schema';
import { nextCandidate, readByName } from './native-list';

describe('nextCandidate', () => {
  const name = 'kube-root-ca.crt';
  it.each([
    [
      'before the name in its namespace: seek to it',
      '/c/a/a',
      { lower: '/c/a/kube-root-ca.crt', lowerOpen: false },
    ],
    ['the name itself: past the namespace', '/c/a/kube-root-ca.crt', { lower: '/c/a0', lowerOpen: false }],
    ['after the name: past the namespace', '/c/a/z', { lower: '/c/a0', lowerOpen: false }],
    [
      'a longer name after it: past the namespace',
      '/c/a/kube-root-ca.crt.old',
      { lower: '/c/a0', lowerOpen: false },
    ],
    ['names alone, before the name', '/c/a/b', { lower: '/c/a/kube-root-ca.crt', lowerOpen: false }],
  ])('%s', (_, key, want) => {
    expect(nextCandidate(key, '/c/', name)).toEqual(want);
  });
  it('in a collection of names alone: to the name, then nothing', () => {
    expect(nextCandidate('/c/a/b', '/c/a/', name)).toEqual({
      lower: '/c/a/kube-root-ca.crt',
      lowerOpen: false,
    });
    expect(nextCandidate('/c/a/kube-root-ca.crt', '/c/a/', name)).toBeUndefined();
    expect(nextCandidate('/c/a/z', '/c/a/', name)).toBeUndefined();
  });
});

/** `readByName` over `keys` (sorted as IndexedDB sorts them), counting the keys it was handed. */
async function readAll(keys: string[], prefix: string, name: string, count = Infinity) {
  const sorted = [...keys].sort();
  let read = 0;
  const keysOf = (range: KeyRange, n: number) => {
    const found = sorted.filter((k) => inRange(k, range)).slice(0, n);
    read += found.length;
    return Promise.resolve(found);
  };
  const rowOf = (key: string) => Promise.resolve({ key, revision: 1, object: {} } as unknown as ObjectRow);
  const upper = `${prefix.slice(0, -1)}0`;
  const matched: string[] = [];
  let range: KeyRange = { lower: prefix, lowerOpen: false, upper };
  for (;;) {
    const step = await readByName(keysOf, rowOf, prefix, name, range, count);
    matched.push(...step.rows.map((r) => r.key));
    if (step.done === true || step.scanned < count || step.last === undefined) break;
    range = { lower: step.last, lowerOpen: true, upper };
  }
  return { matched, read };
}

describe('readByName', () => {
  const name = 'kube-root-ca.crt';
  const bruteForce = (keys: string[], prefix: string) =>
    [...keys].sort().filter((k) => k.startsWith(prefix) && k.endsWith(`/${name}`));
  // Namespaces whose names sort around one another and around '/': a prefix of another, with '-' and '.',
  // one ending in '0'.
  const namespaces = ['a', 'a-b', 'a.c', 'a0', 'ab', 'b', 'ns001', 'ns0010', 'z'];
  const many = namespaces.flatMap((ns, i) => [
    ...Array.from({ length: 300 }, (_, j) => `/c/${ns}/obj-${String(j).padStart(4, '0')}`),
    ...(i % 3 !== 1 ? [`/c/${ns}/${name}`] : []),
    `/c/${ns}/${name}.old`,
    `/c/${ns}/a`,
  ]);

  it('finds every key of the name in namespaces of many objects, reading a few short batches each', async () => {
    const { matched, read } = await readAll(many, '/c/', name);
    expect(matched).toEqual(bruteForce(many, '/c/'));
    expect(matched).toHaveLength(6);
    // At most two batches of 64 keys a namespace (up to the name, then past the namespace), not its 303 keys.
    expect(read).toBeLessThanOrEqual(namespaces.length * 2 * 64);
    expect(read).toBeLessThan(many.length / 4);
  });

  it('finds the same in pieces of a few keys each, as a list going on in later transactions does', async () => {
    for (const count of [1, 2, 7])
      expect((await readAll(many, '/c/', name, count)).matched, `count ${count}`).toEqual(
        bruteForce(many, '/c/'),
      );
  });

  it('finds the same over many namespaces of one or two keys, reading no more keys than there are', async () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `/c/ns${i}/${i % 2 === 0 ? name : 'x'}`);
    const { matched, read } = await readAll(keys, '/c/', name);
    expect(matched).toEqual(bruteForce(keys, '/c/'));
    expect(read).toBeLessThanOrEqual(keys.length);
  });

  it('in one namespace (names alone), reads up to the name and stops', async () => {
    const keys = many.filter((k) => k.startsWith('/c/ns001/'));
    const { matched, read } = await readAll(keys, '/c/ns001/', name);
    expect(matched).toEqual(['/c/ns001/kube-root-ca.crt']);
    expect(read).toBeLessThan(keys.length);
  });
});
