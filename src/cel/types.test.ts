import { describe, expect, it } from 'vitest';
import type { SchemaNode } from '../machinery/schema';
import { toCel } from './convert';
import { Duration } from '@marcbachmann/cel-js/evaluator';
import { celLibrary } from './engine';
import { evaluateRule } from './evaluate';
import { compileRule } from './rules';
import { declTypeOf, maxCardinality } from './types';
import { isObjectValue, listKind } from './values';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

const MAX = 3 * 1024 * 1024 - 2;

describe('schema to CEL types', () => {
  it('maps every schema type', () => {
    const t = declTypeOf(
      {
        type: 'object',
        properties: {
          i: { type: 'integer' },
          n: { type: 'number' },
          b: { type: 'boolean' },
          s: { type: 'string' },
          bytes: { type: 'string', format: 'byte' },
          d: { type: 'string', format: 'date' },
          dt: { type: 'string', format: 'date-time' },
          dur: { type: 'string', format: 'duration' },
          ios: { intOrString: true },
          l: { type: 'array', items: { type: 'string' }, listType: 'set' },
          m: { type: 'object', additionalProperties: { type: 'integer' } },
          hidden: { preserveUnknownFields: true },
          'bad name': { type: 'string' },
        },
      },
      false,
    )!;
    const typeOf = (f: string): string | undefined => t.fields!.get(f)?.type.typeName;
    expect([
      typeOf('i'),
      typeOf('n'),
      typeOf('b'),
      typeOf('s'),
      typeOf('bytes'),
      typeOf('d'),
      typeOf('dt'),
      typeOf('dur'),
      typeOf('ios'),
      typeOf('l'),
      typeOf('m'),
    ]).toEqual([
      'int',
      'double',
      'bool',
      'string',
      'bytes',
      'google.protobuf.Timestamp',
      'google.protobuf.Timestamp',
      'google.protobuf.Duration',
      'dyn',
      'list<string>',
      'map<string, int>',
    ]);
    expect(t.fields!.has('hidden')).toBe(false);
    expect([...t.fields!.keys()]).not.toContain('bad name');
  });

  it('bounds sizes by maxLength (×4 bytes a code point), maxItems, maxProperties, or the request size', () => {
    expect(declTypeOf({ type: 'string', maxLength: 10 }, false)!.maxElements).toBe(40);
    expect(declTypeOf({ type: 'string' }, false)!.maxElements).toBe(MAX);
    expect(declTypeOf({ type: 'array', items: { type: 'integer' }, maxItems: 7 }, false)!.maxElements).toBe(
      7,
    );
    expect(declTypeOf({ type: 'array', items: { type: 'integer' } }, false)!.maxElements).toBe(
      Math.floor(MAX / 2),
    );
    expect(
      declTypeOf({ type: 'object', additionalProperties: { type: 'boolean' } }, false)!.maxElements,
    ).toBe(Math.floor(MAX / 10));
  });

  it('counts required properties in the smallest serialization', () => {
    const t = declTypeOf(
      {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, other: { type: 'string' } },
      },
      false,
    )!;
    expect(t.minSerializedSize).toBe(2 + 'name'.length + 2 + 4);
    expect(maxCardinality(t.minSerializedSize)).toBe(Math.floor((3 * 1024 * 1024) / 13));
  });

  it('adds apiVersion, kind and metadata name/generateName at resource roots', () => {
    const t = declTypeOf(
      {
        type: 'object',
        properties: {
          metadata: {
            type: 'object',
            properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
          },
        },
      },
      true,
    )!;
    expect([...t.fields!.keys()].sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    expect([...t.fields!.get('metadata')!.type.fields!.keys()]).toEqual(['name', 'generateName']);
  });
});

describe('JSON to CEL values', () => {
  const schema: SchemaNode = {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      'x-y': { type: 'string' },
      when: { type: 'string', format: 'date-time' },
      dur: { type: 'string', format: 'duration' },
      tags: { type: 'array', items: { type: 'string' }, listType: 'set' },
    },
  };

  it('converts by declared type, escaping names and dropping unknown fields', () => {
    const v = toCel(
      { n: 3, 'x-y': 'a', dur: '1m', tags: ['a'], extra: true },
      declTypeOf(schema, false),
    ) as Record<string, unknown>;
    expect(isObjectValue(v)).toBe(true);
    expect(v.n).toBe(3n);
    expect(v.x__dash__y).toBe('a');
    expect(v.dur).toBeInstanceOf(Duration);
    expect(listKind(v.tags)).toEqual({ type: 'set' });
    expect('extra' in v).toBe(false);
  });

  it('defers an unparseable formatted value to the rule that reads it', () => {
    const reads = compileRule(schema, "self.when < timestamp('2030-01-01T00:00:00Z')");
    const ignores = compileRule(schema, 'self.n > 0');
    if (Array.isArray(reads) || Array.isArray(ignores)) throw new Error('does not compile');
    const self = { n: 1, when: 'not a time' };
    expect(evaluateRule(ignores, { self })).toMatchObject({ kind: 'pass' });
    expect(evaluateRule(reads, { self })).toMatchObject({
      kind: 'error',
      message: expect.stringContaining("cannot parse 'not a time' as a timestamp"),
    });
  });
});
