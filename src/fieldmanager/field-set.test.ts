/**
 * Field sets built out of order: members and children inserted in any
 * order (a wide map's keys arrive in the body's order) read back sorted by
 * code point and unique, whether the names take the native-sort path or,
 * with surrogate pairs or non-field elements, the comparator's.
 */

import { describe, expect, it } from 'vitest';
import { FieldSet, sortedByElementForTest } from './field-set';
import { comparePE, compareStrings, fieldPE, keyPE, valuePE, type PathElement } from './path';

const names = (pes: readonly PathElement[]): string[] =>
  pes.map((pe) => (pe.kind === 'field' ? pe.name : JSON.stringify(pe)));

describe('FieldSet', () => {
  const cases: [string, string[]][] = [
    ['plain names', ['k10', 'k2', 'k1', 'k2', 'a', 'B', '\uFF5E', 'k10']],
    ['names with surrogate pairs', ['k10', '\u{1F600}', '\uFF5E', 'k1', '\u{1F600}', 'a']],
  ];
  for (const [name, inserted] of cases)
    it(`reads members and children of ${name} sorted by code point, each once`, () => {
      const expected = [...new Set(inserted)].sort(compareStrings);
      const s = new FieldSet();
      for (const n of inserted) s.insert([fieldPE(n)]);
      expect(names(s.members)).toEqual(expected);
      // A child reached twice out of order holds what both insertions put under it.
      const c = new FieldSet();
      inserted.forEach((n, i) => c.insert([fieldPE(n), fieldPE(`x${i}`)]));
      expect(names(c.children.map((ch) => ch.pe))).toEqual(expected);
      const k10 = c.children.find((ch) => ch.pe.kind === 'field' && ch.pe.name === 'k10');
      expect(names(k10?.set.members ?? []).length).toBe(inserted.filter((n) => n === 'k10').length);
    });

  // The sort in blocks and merges must give what one stable sort by the element order gives, element for element
  // (the same objects, equal ones in insertion order), at sizes across several blocks and merge passes.
  const pick = (i: number, seed: number): number => ((i * 2654435761 + seed) >>> 0) % 100_000;
  const sortCases: [string, PathElement[]][] = [
    ['a wide map in body order', Array.from({ length: 3000 }, (_, i) => fieldPE(`k${i}`))],
    ['shuffled names with repeats', Array.from({ length: 2500 }, (_, i) => fieldPE(`k${pick(i, 7) % 3000}`))],
    ['already sorted', Array.from({ length: 3000 }, (_, i) => fieldPE(`a${String(i).padStart(5, '0')}`))],
    ['reversed', Array.from({ length: 3000 }, (_, i) => fieldPE(`a${String(3000 - i).padStart(5, '0')}`))],
    [
      'non-ASCII and surrogate pairs',
      Array.from({ length: 2500 }, (_, i) =>
        fieldPE(['\u{1F600}', '\uFF5E', 'é', 'k', '\u{10FFFF}', '\uE000'][i % 6] + String(pick(i, 3) % 500)),
      ),
    ],
    [
      'non-ASCII without surrogates',
      Array.from({ length: 2500 }, (_, i) =>
        fieldPE(['\uFF5E', 'é', 'k', 'Ω', '\uE000'][i % 5] + String(pick(i, 5) % 900)),
      ),
    ],
    [
      'mixed element kinds',
      Array.from({ length: 2500 }, (_, i) =>
        i % 3 === 0
          ? fieldPE(`f${pick(i, 1) % 400}`)
          : i % 3 === 1
            ? valuePE(pick(i, 2) % 300)
            : keyPE([{ name: 'name', value: `n${pick(i, 4) % 300}` }]),
      ),
    ],
  ];
  for (const [name, items] of sortCases)
    it(`sorts ${name} as one stable sort by the element order does`, () => {
      const tagged = items.map((pe, i) => ({ pe, i }));
      const expected = tagged.slice().sort((a, b) => comparePE(a.pe, b.pe));
      expect(sortedByElementForTest(tagged, (t) => t.pe)).toEqual(expected);
    });

  // A level of at most one block is sorted at once by plain calls, a longer one by the work in blocks: both read
  // back as the stable sort's first of each element, children merged.
  for (const [name, items] of sortCases)
    for (const size of [300, items.length])
      it(`reads ${size} members and children of ${name} sorted and unique`, () => {
        const some = items.slice(0, size);
        const expected = some
          .slice()
          .sort(comparePE)
          .filter((pe, i, all) => i === 0 || comparePE(all[i - 1] as PathElement, pe) !== 0);
        const s = new FieldSet();
        for (const pe of some) s.insertMember(pe);
        expect(s.members).toEqual(expected);
        const c = new FieldSet();
        some.forEach((pe, i) => c.descend(pe).insertMember(fieldPE(`x${i}`)));
        expect(c.children.map((ch) => ch.pe)).toEqual(expected);
        expect(c.children.reduce((n, ch) => n + ch.set.size(), 0)).toBe(size);
      });
});
