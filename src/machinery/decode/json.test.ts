// Duplicate-aware JSON decoding: paths of repeats at every depth, values as
// JSON.parse builds them (or merged, for typed decoding), and Go-worded
// syntax errors with their position. A property test checks the value
// always equals JSON.parse and that keys without repeats report nothing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeJson, formatPath, JsonSyntaxError, mergeTyped } from './json';
import { scanDuplicateKeysWork } from './json-scan';
import { runNow } from '../cooperative';

const paths = (text: string) => decodeJson(text).duplicates.map((d) => d.path);

describe('duplicate fields', () => {
  it('finds repeats at the top, at depth, in maps and in lists', () => {
    expect(paths('{"a":1,"a":2}')).toEqual(['a']);
    expect(paths('{"metadata":{"labels":{"a":"1","b":"2","a":"3"}}}')).toEqual(['metadata.labels.a']);
    expect(paths('{"spec":{"containers":[{"name":"x"},{"name":"y","name":"z"}]}}')).toEqual([
      'spec.containers[1].name',
    ]);
    expect(paths('[{"op":"add","path":"/a","path":"/b"}]')).toEqual(['[0].path']);
    expect(paths('{"a":[[{"k":1,"k":2}]]}')).toEqual(['a[0][0].k']);
  });

  it('reports every repeat, in document order, with its line', () => {
    const text = '{\n "a": 1,\n "b": {"x": 1, "x": 2},\n "a": 3\n}';
    const found = decodeJson(text).duplicates;
    expect(found.map((d) => [d.path, d.line, d.keysBefore])).toEqual([
      ['b.x', 3, 1],
      ['a', 4, 2],
    ]);
  });

  it('compares keys by their decoded text (escapes and unicode)', () => {
    expect(paths('{"a":1,"\\u0061":2}')).toEqual(['a']);
    expect(paths('{"é":1,"\\u00e9":2,"e\\u0301":3}')).toEqual(['é']);
    expect(paths('{"q\\"":1,"q\\"":2,"q":3}')).toEqual(['q"']);
    expect(paths('{"s":"a\\\\","t":"\\"}\\"","s":0}')).toEqual(['s']);
  });

  it('handles objects with many keys', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`);
    expect(paths(`{${keys.join(',')},"k7":0,"k39":1}`)).toEqual(['k7', 'k39']);
  });

  it('scans alike after a scan that failed or grew its key table', () => {
    // The scanner keeps one key table for the next scan: nothing of an earlier scan may show through.
    const wide = `{${Array.from({ length: 600 }, (_, i) => `"k${i}":{"a":1}`).join(',')}}`;
    expect(paths(wide)).toEqual([]);
    expect(() => decodeJson('{"a":1,"b":')).toThrow(JsonSyntaxError);
    expect(paths('{"b":1,"c":{"b":2},"b":3}')).toEqual(['b']);
    const grown = `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":0`).join(',')},"k1":1}`;
    expect(runNow(scanDuplicateKeysWork(grown)).map((d) => d.segments)).toEqual([['k1']]);
    expect(paths('{"x":1,"y":{"x":2,"x":3},"x":4}')).toEqual(['y.x', 'x']);
    expect(paths('{"p":1,"q":[{"p":1,"p":2}]}')).toEqual(['q[0].p']);
  });

  it('keeps the last value, or merges repeats when decoding into a type', () => {
    const text =
      '{"spec":{"template":{"a":1},"x":[1,{"p":1,"q":2}]},"spec":{"template":{"b":2},"x":[9,{"p":3}]}}';
    expect(decodeJson(text).value).toEqual({ spec: { template: { b: 2 }, x: [9, { p: 3 }] } });
    expect(decodeJson(text, { mergeDuplicates: true }).value).toEqual({
      spec: { template: { a: 1, b: 2 }, x: [9, { p: 3, q: 2 }] },
    });
    expect(mergeTyped({ a: [1, 2, 3] }, { a: [4] })).toEqual({ a: [4] });
  });

  it('reads numbers and literals as JSON.parse does', () => {
    const text = '{"n":-1.5e3,"n":0,"t":true,"f":false,"z":null,"big":12345678901234567890}';
    expect(decodeJson(text).value).toEqual(JSON.parse(text));
    expect(paths(text)).toEqual(['n']);
  });

  it('spells paths as strict decoding errors do', () => {
    expect(formatPath(['spec', 'containers', 0, 'name'])).toBe('spec.containers[0].name');
    expect(formatPath([0, 'op'])).toBe('[0].op');
  });
});

describe('syntax errors', () => {
  const cases: [string, string, number][] = [
    ['', 'unexpected end of JSON input', 0],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string", 7],
    ['{"a" 1}', "invalid character '1' after object key", 5],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`, 7],
    ['[1 2]', "invalid character '2' after array element", 3],
    ['apiVersion: v1', "invalid character 'a' looking for beginning of value", 0],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')", 8],
    ['{"a":"\u0001"}', "invalid character '\\x01' in string literal", 6],
    ['{"a":"\\q"}', "invalid character 'q' in string escape code", 7],
    ['{"a":-x}', "invalid character 'x' in numeric literal", 6],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal", 7],
    ['{} {}', "invalid character '{' after top-level value", 3],
    ['{"a":', 'unexpected end of JSON input', 5],
  ];
  for (const [text, message, offset] of cases) {
    it(JSON.stringify(text), () => {
      let caught: unknown;
      try {
        decodeJson(text);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(JsonSyntaxError);
      expect((caught as JsonSyntaxError).message).toBe(message);
      expect((caught as JsonSyntaxError).offset).toBe(offset);
    });
  }

  it('gives the line and column of an error', () => {
    try {
      decodeJson('{\n  "a": 1,\n  "b": ]\n}');
    } catch (e) {
      expect([(e as JsonSyntaxError).line, (e as JsonSyntaxError).column]).toEqual([3, 8]);
    }
  });
});

describe('properties', () => {
  it('decodes every JSON value as JSON.parse does and finds no repeats in JSON.stringify output', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        const decoded = decodeJson(text);
        expect(decoded.value).toEqual(JSON.parse(text));
        expect(decoded.duplicates).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a key repeated anywhere', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.string(), (obj, key) => {
        const text = JSON.stringify({ wrap: [obj] });
        const withRepeat = `${text.slice(0, -3)},${JSON.stringify(key)}:1,${JSON.stringify(key)}:2}]}`;
        const found = decodeJson(withRepeat).duplicates.map((d) => d.segments);
        expect(found).toContainEqual(['wrap', 0, key]);
      }),
      { numRuns: 200 },
    );
  });
});
