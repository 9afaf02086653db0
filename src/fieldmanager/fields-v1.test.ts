/**
 * Path elements and FieldsV1: the key forms (`f:`, `k:` with sorted key
 * fields, `v:`, `.`), the order keys are written in, the text form of
 * paths in messages, and decoding (including `i:` and unknown prefixes).
 */

import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set';
import { fieldsV1ToSet, setToFieldsV1, FieldsV1Error } from './fields-v1';
import { fieldPE, keyPE, pathString, serializePE, valuePE, deserializePE, comparePE } from './path';

describe('path elements', () => {
  it('serialize as the real server writes FieldsV1 keys', () => {
    expect(serializePE(fieldPE('replicas'))).toBe('f:replicas');
    expect(
      serializePE(
        keyPE([
          { name: 'protocol', value: 'TCP' },
          { name: 'containerPort', value: 80 },
        ]),
      ),
    ).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(serializePE(valuePE('foo'))).toBe('v:"foo"');
    expect(serializePE(valuePE(5))).toBe('v:5');
    expect(serializePE(keyPE([{ name: 'name', value: 'a<b' }]))).toBe('k:{"name":"a\\u003cb"}');
  });

  it('print as the real server prints paths in messages', () => {
    expect(pathString([fieldPE('spec'), fieldPE('replicas')])).toBe('.spec.replicas');
    expect(
      pathString([
        fieldPE('spec'),
        fieldPE('ports'),
        keyPE([
          { name: 'port', value: 80 },
          { name: 'protocol', value: 'TCP' },
        ]),
        fieldPE('targetPort'),
      ]),
    ).toBe('.spec.ports[port=80,protocol="TCP"].targetPort');
    expect(pathString([fieldPE('metadata'), fieldPE('finalizers'), valuePE('x')])).toBe(
      '.metadata.finalizers[="x"]',
    );
    expect(pathString([fieldPE('a'), { kind: 'index', index: 3 }])).toBe('.a[3]');
  });

  it('order: fields, then keys, values, indexes; numbers before strings before booleans', () => {
    const sorted = [
      valuePE(true),
      valuePE('b'),
      keyPE([{ name: 'n', value: 'x' }]),
      fieldPE('z'),
      valuePE(2),
      fieldPE('a'),
    ]
      .sort(comparePE)
      .map(serializePE);
    expect(sorted).toEqual(['f:a', 'f:z', 'k:{"n":"x"}', 'v:2', 'v:"b"', 'v:true']);
  });

  it('deserialize every kind; unknown prefixes are skipped', () => {
    expect(deserializePE('k:{"protocol":"TCP","containerPort":80}')).toEqual(
      keyPE([
        { name: 'containerPort', value: 80 },
        { name: 'protocol', value: 'TCP' },
      ]),
    );
    expect(deserializePE('i:3')).toEqual({ kind: 'index', index: 3 });
    expect(deserializePE('z:whatever')).toBeUndefined();
    expect(() => deserializePE('f')).toThrow('key must be 2 characters long');
  });
});

describe('FieldsV1', () => {
  const set = FieldSet.of(
    [fieldPE('spec'), fieldPE('replicas')],
    [fieldPE('metadata'), fieldPE('labels')],
    [fieldPE('metadata'), fieldPE('labels'), fieldPE('app')],
    [fieldPE('spec'), fieldPE('containers'), keyPE([{ name: 'name', value: 'web' }])],
    [fieldPE('spec'), fieldPE('containers'), keyPE([{ name: 'name', value: 'web' }]), fieldPE('image')],
    [fieldPE('spec'), fieldPE('finalizers'), valuePE('x')],
  );

  it('encodes members as {} and owned containers with "." first, keys in set order', () => {
    const encoded = setToFieldsV1(set);
    expect(JSON.stringify(encoded)).toBe(
      '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{}}},"f:finalizers":{"v:\\"x\\"":{}},"f:replicas":{}}}',
    );
  });

  it('decodes what it encodes', () => {
    expect(fieldsV1ToSet(setToFieldsV1(set)).equals(set)).toBe(true);
  });

  it('decodes sets written by others in any key order', () => {
    const s = fieldsV1ToSet({ 'f:spec': { 'f:b': {}, '.': {}, 'f:a': {} } });
    expect(s.paths().map(pathString)).toEqual(['.spec', '.spec.a', '.spec.b']);
  });

  it('rejects malformed input', () => {
    expect(() => fieldsV1ToSet({ 'k:{bad': {} })).toThrow(FieldsV1Error);
    expect(() => fieldsV1ToSet({ 'f:a': 1 } as never)).toThrow(FieldsV1Error);
    expect(fieldsV1ToSet({}).empty()).toBe(true);
  });
});

describe('field sets', () => {
  const p = (...names: string[]) => names.map(fieldPE);
  it('difference leaves the children of a removed parent; recursive difference removes them', () => {
    const s = FieldSet.of(p('a'), p('a', 'b'), p('c'));
    const parent = FieldSet.of(p('a'));
    expect(s.difference(parent).paths().map(pathString)).toEqual(['.c', '.a.b']);
    expect(s.recursiveDifference(parent).paths().map(pathString)).toEqual(['.c']);
  });
  it('union, intersection and emptiness', () => {
    const a = FieldSet.of(p('x', 'y'), p('z'));
    const b = FieldSet.of(p('x', 'y'), p('w'));
    expect(a.union(b).paths().map(pathString)).toEqual(['.w', '.z', '.x.y']);
    expect(a.intersection(b).paths().map(pathString)).toEqual(['.x.y']);
    expect(a.difference(a).empty()).toBe(true);
  });
});
