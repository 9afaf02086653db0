/**
 * The comparison walked at once (`compareSmall`) and in steps (`compareWork`) give the same three sets, on
 * random pairs of objects of a kind with every merge strategy (keyed lists, sets, atomic lists, maps, free
 * fields) and without a schema; past its node budget the walk at once gives up and leaves it to the steps.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../api/meta';
import { runNow } from '../../machinery/cooperative';
import { resolverFor } from '../object-type';
import { pathString } from '../path';
import { unstructuredType, widgetType } from '../test-fixture';
import { compareSmall, compareWork, type Comparison } from './compare';
import type { ObjectType } from '../object-type';

const pick = <T>(...values: T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
const opt = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const specArb = fc
  .record({
    replicas: opt(pick(0, 1, 2)),
    image: opt(pick('a', 'b')),
    tags: opt(fc.uniqueArray(pick('a', 'b', 'c'), { maxLength: 3 })),
    args: opt(fc.array(pick('x', 'y'), { maxLength: 2 })),
    items: opt(
      fc.uniqueArray(fc.record({ name: pick('a', 'b', 'c'), value: opt(pick('1', '2')) }).map(compact), {
        selector: (i) => i.name,
        maxLength: 3,
      }),
    ),
    labels: opt(fc.dictionary(pick('a', 'b'), pick('1', '2'), { maxKeys: 2 })),
    config: opt(fc.record({ a: opt(pick('x', 'y')), nested: opt(fc.record({ c: opt(pick(1, 2)) })) })),
    free: opt(fc.record({ x: opt(fc.record({ y: opt(pick(1, 2)), z: opt(pick<unknown>([], {}, 'z')) })) })),
  })
  .map(compact);

const objectArb = fc
  .record({
    spec: opt(specArb),
    metadata: opt(fc.record({ name: pick('a', 'b'), labels: opt(fc.dictionary(pick('x'), pick('1'))) })),
  })
  .map((o) => compact(o) as JsonValue);

function sets(c: Comparison): Record<string, string[]> {
  return {
    added: c.added.paths().map(pathString),
    modified: c.modified.paths().map(pathString),
    removed: c.removed.paths().map(pathString),
  };
}

function check(type: ObjectType): void {
  const types = resolverFor(type.definitions);
  const root = types.root(type.root);
  fc.assert(
    fc.property(fc.option(objectArb, { nil: undefined }), objectArb, (lhs, rhs) => {
      const stepped = runNow(compareWork(types, lhs, rhs, root));
      const atOnce = compareSmall(types, lhs, rhs, root, Number.POSITIVE_INFINITY);
      expect(atOnce).toBeDefined();
      expect(sets(atOnce as Comparison)).toEqual(sets(stepped));
    }),
    { numRuns: 300 },
  );
}

describe('compareSmall', () => {
  it('gives the sets compareWork gives, on a kind with a schema', () => check(widgetType()));

  it('gives the sets compareWork gives, without a schema', () => check(unstructuredType()));

  it('gives up past its node budget', () => {
    const type = widgetType();
    const types = resolverFor(type.definitions);
    const obj = { spec: { tags: ['a', 'b', 'c'], labels: { a: '1', b: '2' } } } as unknown as JsonValue;
    expect(compareSmall(types, {}, obj, types.root(type.root), 3)).toBeUndefined();
    expect(compareSmall(types, {}, obj, types.root(type.root), 100)).toBeDefined();
  });
});
