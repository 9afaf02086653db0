import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import { find, findAll, matches } from './regex';
import { escapeName, unescapeName } from './escaping';
import fc from 'fast-check';
import * as str from './strings';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

describe('strings extension', () => {
  it('indexes by code point', () => {
    expect(str.charAt('a😀b', 2n)).toBe('b');
    expect(str.indexOf('😀a😀b', 'b')).toBe(3n);
    expect(str.lastIndexOf('a😀a', 'a')).toBe(2n);
    expect(str.substring('😀abc', 1n, 3n)).toBe('ab');
    expect(() => str.substring('abc', 2n, 1n)).toThrow(/invalid substring range/);
    expect(() => str.charAt('abc', 4n)).toThrow(/index out of range: 4/);
  });

  it('changes case of ASCII letters only and trims Unicode space', () => {
    expect(str.lowerAscii('TacoCÆt')).toBe('tacocÆt');
    expect(str.upperAscii('tacoCαt')).toBe('TACOCαT');
    expect(str.trim('\u0085\u00a0 text\u3000')).toBe('text');
    expect(str.trim('\ufefftext')).toBe('\ufefftext');
  });

  it('replaces and splits like Go', () => {
    expect(str.replace('{0} days {0} hours', '{0}', '2', 1n)).toBe('2 days {0} hours');
    expect(str.replace('ab', '', '-')).toBe('-a-b-');
    expect(str.split('a,b,c', ',', 2n)).toEqual(['a', 'b,c']);
    expect(str.split('a😀', '')).toEqual(['a', '😀']);
    expect(str.split('a,b', ',', 0n)).toEqual([]);
  });
});

describe('regex library (RE2)', () => {
  it('matches partially, finds the first and all matches', () => {
    expect(matches('abc123', '[0-9]+')).toBe(true);
    expect(matches('abc', '^b')).toBe(false);
    expect(find('abc 42 de 7', '[0-9]+')).toBe('42');
    expect(find('abc', '[0-9]+')).toBe('');
    expect(findAll('abc 42 de 7', '[0-9]+')).toEqual(['42', '7']);
    expect(findAll('a1b2c3', '[0-9]', 2n)).toEqual(['1', '2']);
  });

  it('rejects backreferences and lookarounds (not RE2)', () => {
    expect(() => matches('aa', '(a)\\1')).toThrow(/error parsing regexp/);
    expect(() => matches('ab', 'a(?=b)')).toThrow(/error parsing regexp/);
  });
});

describe('property-name escaping', () => {
  it('escapes as the spec says', () => {
    expect(escapeName('foo-bar')).toBe('foo__dash__bar');
    expect(escapeName('a.b/c')).toBe('a__dot__b__slash__c');
    expect(escapeName('x__y')).toBe('x__underscores__y');
    expect(escapeName('namespace')).toBe('__namespace__');
    expect(escapeName('namespaces')).toBe('namespaces');
    expect(escapeName('1st')).toBeUndefined();
    expect(escapeName('a b')).toBeUndefined();
  });

  it('round-trips every accessible name (property)', () => {
    const name = fc.stringMatching(/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]{0,12}$/);
    fc.assert(
      fc.property(name, (n) => {
        const escaped = escapeName(n)!;
        expect(escaped).toMatch(/^[a-zA-Z_][a-zA-Z0-9_]*$/);
        expect(unescapeName(escaped)).toBe(n);
      }),
    );
  });
});
