/**
 * Field sets built out of order: members and children inserted in any
 * order (a wide map's keys arrive in the body's order) read back sorted by
 * code point and unique, whether the names take the native-sort path or,
 * with surrogate pairs or non-field elements, the comparator's.
 */

import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set';
import { compareStrings, fieldPE, type PathElement } from './path';

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
});
