/**
 * Properties of apply over random histories of applies, forced applies and
 * updates by several managers on a kind with every merge strategy: apply is
 * idempotent, applying the body just applied conflicts with nobody, and no
 * history leaves a field in the object that nobody owns.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue, KubeObject } from '../api/meta';
import { FieldSet } from './field-set';
import { fieldsV1ToSet } from './fields-v1';
import { resolverFor } from './object-type';
import { pathString } from './path';
import { Fixture, widget, widgetType, type Step } from './test-fixture';
import { goShape } from './typed/go-shape';
import { toFieldSet } from './typed/to-field-set';

const type = widgetType();

const opt = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });
const pick = <T>(...values: T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const specArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    replicas: opt(fc.integer({ min: 0, max: 3 })),
    image: opt(pick('a', 'b')),
    tags: opt(fc.uniqueArray(pick('a', 'b', 'c'), { maxLength: 3 })),
    args: opt(fc.array(pick('x', 'y'), { maxLength: 2 })),
    items: opt(
      fc.uniqueArray(
        fc
          .record({ name: pick('a', 'b', 'c'), value: opt(pick('1', '2')), extra: opt(pick('x', 'y')) })
          .map(compact),
        { selector: (i) => i.name, maxLength: 3 },
      ),
    ),
    ports: opt(
      fc.uniqueArray(
        fc
          .record({ port: pick(80, 443), protocol: opt(pick('TCP', 'UDP')), target: opt(pick(1, 2)) })
          .map(compact),
        { selector: (p) => `${String(p.port)}/${String(p.protocol ?? 'TCP')}`, maxLength: 2 },
      ),
    ),
    labels: opt(fc.dictionary(pick('a', 'b'), pick('1', '2'), { maxKeys: 2 })),
    selector: opt(fc.dictionary(pick('a', 'b'), pick('1', '2'), { minKeys: 1, maxKeys: 2 })),
    config: opt(
      fc
        .record({
          a: opt(pick('x', 'y')),
          b: opt(pick('x', 'y')),
          nested: opt(fc.record({ c: opt(pick('1', '2')) }).map(compact)),
        })
        .map(compact),
    ),
    free: opt(
      fc.record({ x: opt(fc.record({ y: opt(pick(1, 2)), z: opt(pick(1, 2)) }).map(compact)) }).map(compact),
    ),
  })
  .map(compact);

/**
 * An applied configuration always sets something: when an apply leaves nobody owning anything, the next
 * apply first gives the existing fields to "before-first-apply", as the real server does, and the two
 * applies differ by that entry.
 */
const configArb = fc
  .tuple(specArb, pick('x', 'y'))
  .map(([spec, owned]) => ({ ...spec, image: spec.image ?? owned }));

/** Steps as plain data (so that counterexamples print), turned into fixture steps when run. */
type StepData =
  | { apply: string; spec: Record<string, unknown>; force: boolean }
  | { update: string; spec: Record<string, unknown>; mergeIntoLive: boolean };

const stepArb: fc.Arbitrary<StepData> = fc.oneof(
  fc.record({ apply: pick('alice', 'bob', 'carol'), spec: configArb, force: fc.boolean() }),
  fc.record({ update: pick('dave', 'erin'), spec: specArb, mergeIntoLive: fc.boolean() }),
);

function toStep(d: StepData): Step {
  if ('apply' in d) return { apply: d.apply, config: widget(d.spec), force: d.force };
  return {
    update: d.update,
    object: (live) => ({
      ...(live ?? widget()),
      spec: d.mergeIntoLive ? { ...((live?.spec as object | undefined) ?? {}), ...d.spec } : d.spec,
    }),
  };
}

/**
 * Fields of the object (what an applier of it would claim) that no entry owns; server-managed metadata
 * aside. The object is seen through Go structs, as the real server stores it (an empty list is no field).
 */
function unowned(obj: KubeObject | undefined): string[] {
  if (obj === undefined) return [];
  const types = resolverFor(type.definitions);
  const view = goShape(
    type.definitions,
    { spec: obj.spec ?? {}, status: obj.status ?? {} } as unknown as JsonValue,
    type.root,
  );
  const present = toFieldSet(types, view, types.root(type.root));
  let owned = new FieldSet();
  for (const e of obj.metadata?.managedFields ?? []) owned = owned.union(fieldsV1ToSet(e.fieldsV1));
  return present.difference(owned).paths().map(pathString);
}

const runs = { numRuns: 100 };

describe('apply properties', () => {
  it('no history of writes leaves a field that nobody owns', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 8 }), (steps) => {
        const f = new Fixture(type);
        for (const step of steps) {
          f.run(toStep(step));
          expect(unowned(f.live)).toEqual([]);
        }
      }),
      runs,
    );
  });

  it('apply is idempotent', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 6 }),
        pick('alice', 'bob', 'frank'),
        configArb,
        (steps, manager, spec) => {
          const f = new Fixture(type);
          for (const step of steps) f.run(toStep(step));
          expect(f.run({ apply: manager, config: widget(spec), force: true }).ok).toBe(true);
          const once = f.live;
          expect(f.run({ apply: manager, config: widget(spec), force: true }).ok).toBe(true);
          expect(f.live).toEqual(once);
        },
      ),
      runs,
    );
  });

  it('applying the body just applied conflicts with nobody, whoever applies it', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { maxLength: 6 }),
        pick('alice', 'bob'),
        pick('alice', 'bob', 'carol', 'frank'),
        configArb,
        (steps, first, second, spec) => {
          const f = new Fixture(type);
          for (const step of steps) f.run(toStep(step));
          expect(f.run({ apply: first, config: widget(spec), force: true }).ok).toBe(true);
          // No conflict; a manager other than the first may still prune what it applied before.
          expect(f.run({ apply: second, config: widget(spec) })).toEqual({ ok: true });
        },
      ),
      runs,
    );
  });
});
