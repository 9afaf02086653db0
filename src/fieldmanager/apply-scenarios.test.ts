/**
 * Apply scenarios, table-driven in the manner of the real server's
 * multiple-appliers tests: each case plays Apply / ForceApply / Update steps
 * by named managers and asserts every step's outcome (success or the exact
 * conflicts), the final object and every manager's owned fields.
 */

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/meta';
import type { SchemaNode } from '../machinery/schema';
import { generatedDefinitions } from '../../test/support/generated-definitions';
import { lastAppliedAnnotation as lastApplied } from './test-fixture';
import type { ObjectType } from './object-type';
import { Fixture, ownership, payload, unstructuredType, widget, widgetType, type Step } from './test-fixture';

interface Scenario {
  name: string;
  type?: ObjectType;
  steps: Step[];
  /** The final object without managedFields (exact). */
  object?: KubeObject;
  /** Every entry's owned fields (exact). */
  managed?: Record<string, string[]>;
  /** Extra assertions on the final object (with managedFields). */
  check?: (obj: KubeObject | undefined) => void;
}

const W = widgetType();
const str: SchemaNode = { type: 'string' };
const itemsAtomic = widgetType({ items: { type: 'array', items: { ref: 'test.Item' }, listType: 'atomic' } });
const labelsAtomic = widgetType({ labels: { type: 'object', additionalProperties: str, mapType: 'atomic' } });
const configAtomic = widgetType({ config: { ref: 'test.Config', mapType: 'atomic' } });
const selectorGranular = widgetType({ selector: { type: 'object', additionalProperties: str } });

const apply = (manager: string, spec: Record<string, unknown>, more: Partial<Step> = {}): Step =>
  ({ apply: manager, config: widget(spec), ...more }) as Step;
const force = (manager: string, spec: Record<string, unknown>, more: Partial<Step> = {}): Step =>
  apply(manager, spec, { force: true, ...more } as Partial<Step>);
const update = (manager: string, spec: Record<string, unknown>, more: Partial<Step> = {}): Step =>
  ({
    update: manager,
    object: (live: KubeObject | undefined) => ({ ...(live ?? widget()), spec }),
    ...more,
  }) as Step;
const item = (name: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  ...fields,
});
const itemPaths = (name: string, ...fields: string[]): string[] => [
  `.spec.items[name="${name}"]`,
  ...['name', ...fields].map((f) => `.spec.items[name="${name}"].${f}`),
];

const deployment = (containers: unknown[], extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers } },
    ...extra,
  },
});

const scenarios: Scenario[] = [
  // Rules 2–4: ownership, conflicts, resolution, removal.
  {
    name: 'create by apply owns exactly the applied fields (name and namespace never)',
    steps: [apply('alice', { replicas: 1, image: 'a' })],
    object: widget({ replicas: 1, image: 'a' }),
    managed: { alice: ['.spec.image', '.spec.replicas'] },
  },
  {
    name: 'applying the same configuration twice is a no-op',
    steps: [apply('alice', { replicas: 1 }), apply('alice', { replicas: 1 })],
    object: widget({ replicas: 1 }),
    managed: { alice: ['.spec.replicas'] },
  },
  {
    name: 'appliers of different fields merge',
    steps: [apply('alice', { replicas: 1 }), apply('bob', { image: 'b' })],
    object: widget({ replicas: 1, image: 'b' }),
    managed: { alice: ['.spec.replicas'], bob: ['.spec.image'] },
  },
  {
    name: 'changing a field another applier owns conflicts and changes nothing',
    steps: [
      apply('alice', { replicas: 1 }),
      apply('bob', { replicas: 2 }, { conflicts: ['"alice": .spec.replicas'] }),
    ],
    object: widget({ replicas: 1 }),
    managed: { alice: ['.spec.replicas'] },
  },
  {
    name: 'force takes the field over; an owner left with nothing disappears',
    steps: [apply('alice', { replicas: 1 }), force('bob', { replicas: 2 })],
    object: widget({ replicas: 2 }),
    managed: { bob: ['.spec.replicas'] },
  },
  {
    name: 'force removes only the conflicting fields from the other manager',
    steps: [apply('alice', { replicas: 1, image: 'a' }), force('bob', { replicas: 2 })],
    object: widget({ replicas: 2, image: 'a' }),
    managed: { alice: ['.spec.image'], bob: ['.spec.replicas'] },
  },
  {
    name: 'applying the same value shares ownership',
    steps: [apply('alice', { replicas: 1 }), apply('bob', { replicas: 1 })],
    object: widget({ replicas: 1 }),
    managed: { alice: ['.spec.replicas'], bob: ['.spec.replicas'] },
  },
  {
    name: 'a later change of a shared field by the first owner conflicts',
    steps: [
      apply('alice', { replicas: 1 }),
      apply('bob', { replicas: 1 }),
      apply('alice', { replicas: 2 }, { conflicts: ['"bob": .spec.replicas'] }),
    ],
    object: widget({ replicas: 1 }),
  },
  {
    name: 'a later change of a shared field by the second owner conflicts',
    steps: [
      apply('alice', { replicas: 1 }),
      apply('bob', { replicas: 1 }),
      apply('bob', { replicas: 3 }, { conflicts: ['"alice": .spec.replicas'] }),
    ],
    object: widget({ replicas: 1 }),
  },
  {
    name: 'dropping a shared field releases it and keeps the value',
    steps: [
      apply('alice', { replicas: 1, image: 'a' }),
      apply('bob', { replicas: 1 }),
      apply('alice', { image: 'a' }),
      apply('bob', { replicas: 5 }),
    ],
    object: widget({ replicas: 5, image: 'a' }),
    managed: { alice: ['.spec.image'], bob: ['.spec.replicas'] },
  },
  {
    name: 'dropping a field its applier alone owns removes it',
    steps: [apply('alice', { replicas: 1, image: 'a' }), apply('alice', { image: 'a' })],
    object: widget({ image: 'a' }),
    managed: { alice: ['.spec.image'] },
  },
  {
    name: 'removal leaves a field an updater took',
    steps: [apply('alice', { replicas: 1 }), update('bob', { replicas: 2 }), apply('alice', { image: 'x' })],
    object: widget({ replicas: 2, image: 'x' }),
    managed: { alice: ['.spec.image'], 'bob update': ['.spec.replicas'] },
  },
  {
    name: 'removal leaves fields nobody owns (e.g. server defaults)',
    steps: [
      apply('alice', { replicas: 1 }),
      update('defaulter', { replicas: 1, image: 'd' }),
      {
        update: 'reset',
        object: (l) => ({ ...(l as KubeObject), metadata: { name: 'w', managedFields: [{}] } }),
      },
      apply('alice', { replicas: 1 }),
      apply('alice', {}),
    ],
    // after the reset nothing is owned; alice's first apply makes "before-first-apply" own the existing fields
    object: widget({ replicas: 1, image: 'd' }),
    managed: { 'before-first-apply update': ['.spec.image', '.spec.replicas'] },
  },
  {
    name: 'updates never conflict: the updater takes the field',
    steps: [apply('alice', { replicas: 1 }), update('bob', { replicas: 5 })],
    object: widget({ replicas: 5 }),
    managed: { 'bob update': ['.spec.replicas'] },
  },
  {
    name: 'apply after update conflicts with the updater, named with its apiVersion',
    steps: [
      update('bob', { replicas: 1, image: 'a' }),
      apply('alice', { replicas: 2 }, { conflicts: ['"bob" using example.com/v1: .spec.replicas'] }),
    ],
    object: widget({ replicas: 1, image: 'a' }),
    managed: { 'bob update': ['.spec.image', '.spec.replicas'] },
  },
  {
    name: 'apply after update with the same value shares ownership',
    steps: [update('bob', { replicas: 1 }), apply('alice', { replicas: 1 })],
    managed: { alice: ['.spec.replicas'], 'bob update': ['.spec.replicas'] },
  },
  {
    name: "one manager's updates merge into one entry",
    steps: [update('bob', { replicas: 1 }), update('bob', { replicas: 1, image: 'a' })],
    managed: { 'bob update': ['.spec.image', '.spec.replicas'] },
    check: (o) => expect(o?.metadata?.managedFields).toHaveLength(1),
  },
  {
    name: 'an updater left owning nothing disappears',
    steps: [update('bob', { replicas: 1 }), update('carol', { replicas: 2 })],
    managed: { 'carol update': ['.spec.replicas'] },
  },
  {
    name: 'an update that removes a field removes it from every owner',
    steps: [apply('alice', { replicas: 1, image: 'a' }), update('bob', { replicas: 1 })],
    object: widget({ replicas: 1 }),
    managed: { alice: ['.spec.replicas'] },
  },
  {
    name: 'update entries are per apiVersion, apply entries are not',
    steps: [
      update('bob', { replicas: 1 }),
      update('bob', { replicas: 2 }, { apiVersion: 'example.com/v2' }),
      apply('alice', { image: 'a' }),
      {
        apply: 'alice',
        config: { ...widget({ image: 'a', args: ['x'] }), apiVersion: 'example.com/v2' },
        apiVersion: 'example.com/v2',
      },
    ],
    check: (o) => {
      const entries = (o?.metadata?.managedFields ?? []).map(
        (e) => `${e.manager}/${e.operation}/${e.apiVersion}`,
      );
      expect(entries).toEqual(['alice/Apply/example.com/v2', 'bob/Update/example.com/v2']);
    },
  },
  {
    name: 'conflicts with several managers are listed per manager',
    steps: [
      apply('alice', { replicas: 1 }),
      apply('bob', { image: 'b' }),
      {
        ...apply('carol', { replicas: 2, image: 'c' }),
        conflicts: ['"alice": .spec.replicas', '"bob": .spec.image'],
      },
    ],
    object: widget({ replicas: 1, image: 'b' }),
  },
  {
    name: 'several conflicts with one manager are listed under it',
    steps: [
      apply('alice', { replicas: 1, image: 'a' }),
      apply(
        'bob',
        { replicas: 2, image: 'b' },
        { conflicts: ['"alice": .spec.image', '"alice": .spec.replicas'] },
      ),
    ],
  },
  {
    name: 'force with several owners takes from all of them',
    steps: [
      apply('alice', { replicas: 1 }),
      apply('bob', { image: 'b' }),
      force('carol', { replicas: 2, image: 'c' }),
    ],
    object: widget({ replicas: 2, image: 'c' }),
    managed: { carol: ['.spec.image', '.spec.replicas'] },
  },

  // Rule 5: list types.
  {
    name: 'set items are owned one by one; a shared item is shared',
    steps: [apply('alice', { tags: ['a', 'b'] }), apply('bob', { tags: ['b', 'c'] })],
    object: widget({ tags: ['a', 'b', 'c'] }),
    managed: {
      alice: ['.spec.tags[="a"]', '.spec.tags[="b"]'],
      bob: ['.spec.tags[="b"]', '.spec.tags[="c"]'],
    },
  },
  {
    name: 'dropping a set item removes it when its applier alone owns it',
    steps: [apply('alice', { tags: ['a', 'b'] }), apply('alice', { tags: ['a'] })],
    object: widget({ tags: ['a'] }),
    managed: { alice: ['.spec.tags[="a"]'] },
  },
  {
    name: 'dropping a shared set item keeps it',
    steps: [
      apply('alice', { tags: ['a', 'b'] }),
      apply('bob', { tags: ['b'] }),
      apply('alice', { tags: ['a'] }),
    ],
    object: widget({ tags: ['a', 'b'] }),
    managed: { alice: ['.spec.tags[="a"]'], bob: ['.spec.tags[="b"]'] },
  },
  {
    name: 'a set takes the applier’s order for the items it names',
    steps: [apply('alice', { tags: ['a', 'b'] }), apply('alice', { tags: ['b', 'a'] })],
    object: widget({ tags: ['b', 'a'] }),
  },
  {
    name: 'an atomic list is one field: a different list conflicts',
    steps: [
      apply('alice', { args: ['x', 'y'] }),
      apply('bob', { args: ['z'] }, { conflicts: ['"alice": .spec.args'] }),
    ],
    managed: { alice: ['.spec.args'] },
  },
  {
    name: 'an atomic list is replaced whole on force',
    steps: [apply('alice', { args: ['x', 'y'] }), force('bob', { args: ['z'] })],
    object: widget({ args: ['z'] }),
    managed: { bob: ['.spec.args'] },
  },
  {
    name: 'an atomic list with the same value is shared',
    steps: [apply('alice', { args: ['x', 'y'] }), apply('bob', { args: ['x', 'y'] })],
    managed: { alice: ['.spec.args'], bob: ['.spec.args'] },
  },
  {
    name: 'map-list items merge by key and are owned per field',
    steps: [
      apply('alice', { items: [item('a', { value: '1' })] }),
      apply('bob', { items: [item('b', { value: '2' })] }),
    ],
    object: widget({ items: [item('a', { value: '1' }), item('b', { value: '2' })] }),
    managed: { alice: itemPaths('a', 'value'), bob: itemPaths('b', 'value') },
  },
  {
    name: 'a conflict in a map list names the item by its key',
    steps: [
      apply('alice', { items: [item('a', { value: '1' })] }),
      apply(
        'bob',
        { items: [item('a', { value: '2' })] },
        { conflicts: ['"alice": .spec.items[name="a"].value'] },
      ),
    ],
  },
  {
    name: 'two appliers of one item own its different fields',
    steps: [
      apply('alice', { items: [item('a', { value: '1' })] }),
      apply('bob', { items: [item('a', { extra: 'x' })] }),
    ],
    object: widget({ items: [item('a', { value: '1', extra: 'x' })] }),
    managed: { alice: itemPaths('a', 'value'), bob: itemPaths('a', 'extra') },
  },
  {
    name: 'dropping an item its applier alone owns removes it',
    steps: [apply('alice', { items: [item('a'), item('b')] }), apply('alice', { items: [item('a')] })],
    object: widget({ items: [item('a')] }),
    managed: { alice: itemPaths('a') },
  },
  {
    name: 'dropping a shared item keeps it, minus the fields only its applier set',
    steps: [
      apply('alice', { items: [item('a', { value: '1' })] }),
      apply('bob', { items: [item('a', { extra: 'x' })] }),
      apply('alice', { items: [] }),
    ],
    object: widget({ items: [item('a', { extra: 'x' })] }),
    managed: { bob: itemPaths('a', 'extra') },
  },
  {
    name: 'dropping the last item removes the list',
    steps: [apply('alice', { replicas: 1, items: [item('a')] }), apply('alice', { replicas: 1 })],
    object: widget({ replicas: 1 }),
  },
  {
    name: 'merged list order: the applier’s order for items it names, others keep their place',
    steps: [
      apply('alice', { items: [item('a'), item('b'), item('c')] }),
      apply('bob', { items: [item('c'), item('a')] }),
    ],
    object: widget({ items: [item('b'), item('c'), item('a')] }),
  },
  {
    name: 'new items of an applier go after the live ones they do not name',
    steps: [apply('alice', { items: [item('a')] }), apply('bob', { items: [item('z'), item('a')] })],
    object: widget({ items: [item('z'), item('a')] }),
  },
  {
    name: 'a map list keyed by two fields names items by both',
    steps: [
      apply('alice', { ports: [{ port: 80, protocol: 'TCP', target: 8080 }] }),
      apply('bob', { ports: [{ port: 80, protocol: 'UDP', target: 53 }] }),
    ],
    object: widget({
      ports: [
        { port: 80, protocol: 'TCP', target: 8080 },
        { port: 80, protocol: 'UDP', target: 53 },
      ],
    }),
    managed: {
      alice: [
        '.spec.ports[port=80,protocol="TCP"]',
        '.spec.ports[port=80,protocol="TCP"].port',
        '.spec.ports[port=80,protocol="TCP"].protocol',
        '.spec.ports[port=80,protocol="TCP"].target',
      ],
      bob: [
        '.spec.ports[port=80,protocol="UDP"]',
        '.spec.ports[port=80,protocol="UDP"].port',
        '.spec.ports[port=80,protocol="UDP"].protocol',
        '.spec.ports[port=80,protocol="UDP"].target',
      ],
    },
  },
  {
    name: 'an omitted key field takes its schema default',
    steps: [
      apply('alice', { ports: [{ port: 80, target: 1 }] }),
      apply(
        'bob',
        { ports: [{ port: 80, protocol: 'TCP', target: 2 }] },
        { conflicts: ['"alice": .spec.ports[port=80,protocol="TCP"].target'] },
      ),
    ],
    managed: {
      alice: [
        '.spec.ports[port=80,protocol="TCP"]',
        '.spec.ports[port=80,protocol="TCP"].port',
        '.spec.ports[port=80,protocol="TCP"].target',
      ],
    },
  },
  {
    name: 'patchMergeKey without a list type counts as a map list on that key',
    steps: [
      apply('alice', { mergeList: [{ key: 'a', v: '1' }] }),
      apply('bob', { mergeList: [{ key: 'b', v: '2' }] }),
    ],
    object: widget({
      mergeList: [
        { key: 'a', v: '1' },
        { key: 'b', v: '2' },
      ],
    }),
    managed: {
      alice: ['.spec.mergeList[key="a"]', '.spec.mergeList[key="a"].key', '.spec.mergeList[key="a"].v'],
      bob: ['.spec.mergeList[key="b"]', '.spec.mergeList[key="b"].key', '.spec.mergeList[key="b"].v'],
    },
  },
  {
    name: 'merge strategy without a key on scalars counts as a set',
    steps: [apply('alice', { finalizers: ['x'] }), apply('bob', { finalizers: ['y'] })],
    object: widget({ finalizers: ['x', 'y'] }),
    managed: { alice: ['.spec.finalizers[="x"]'], bob: ['.spec.finalizers[="y"]'] },
  },
  {
    name: 'a list without markers is atomic',
    steps: [
      apply('alice', { plainList: [{ key: 'a' }] }),
      apply('bob', { plainList: [{ key: 'b' }] }, { conflicts: ['"alice": .spec.plainList'] }),
    ],
  },

  // Rule 5: map and struct types.
  {
    name: 'a granular map is owned per key',
    steps: [apply('alice', { labels: { a: '1' } }), apply('bob', { labels: { b: '2' } })],
    object: widget({ labels: { a: '1', b: '2' } }),
    managed: { alice: ['.spec.labels.a'], bob: ['.spec.labels.b'] },
  },
  {
    name: 'a granular map key conflicts alone',
    steps: [
      apply('alice', { labels: { a: '1', c: '3' } }),
      apply('bob', { labels: { a: '2' } }, { conflicts: ['"alice": .spec.labels.a'] }),
    ],
  },
  {
    name: 'an atomic map is one field',
    steps: [
      apply('alice', { selector: { a: '1' } }),
      apply('bob', { selector: { b: '2' } }, { conflicts: ['"alice": .spec.selector'] }),
    ],
    managed: { alice: ['.spec.selector'] },
  },
  {
    name: 'an atomic map is replaced, not merged, on force',
    steps: [apply('alice', { selector: { a: '1' } }), force('bob', { selector: { b: '2' } })],
    object: widget({ selector: { b: '2' } }),
  },
  {
    name: 'a granular struct is owned per field, never as a whole',
    steps: [apply('alice', { config: { a: 'x' } }), apply('bob', { config: { b: 'y' } })],
    object: widget({ config: { a: 'x', b: 'y' } }),
    managed: { alice: ['.spec.config.a'], bob: ['.spec.config.b'] },
  },
  {
    name: 'dropping a nested struct removes it whole',
    steps: [
      apply('alice', { config: { a: 'x', nested: { c: '1' } } }),
      apply('alice', { config: { a: 'x' } }),
    ],
    object: widget({ config: { a: 'x' } }),
  },
  {
    name: 'dropping every field of a struct removes the struct',
    steps: [apply('alice', { replicas: 1, config: { a: 'x' } }), apply('alice', { replicas: 1 })],
    object: widget({ replicas: 1 }),
  },
  {
    name: 'an atomic struct is one field',
    steps: [
      apply('alice', { atomicConfig: { a: 'x' } }),
      apply('bob', { atomicConfig: { b: 'y' } }, { conflicts: ['"alice": .spec.atomicConfig'] }),
    ],
  },
  {
    name: 'an atomic struct is replaced on force',
    steps: [apply('alice', { atomicConfig: { a: 'x' } }), force('bob', { atomicConfig: { b: 'y' } })],
    object: widget({ atomicConfig: { b: 'y' } }),
  },
  {
    name: 'unknown fields under preserve-unknown-fields: keys are fields and owned as members',
    steps: [apply('alice', { free: { x: { y: 1 } } }), apply('bob', { free: { x: { z: 2 } } })],
    object: widget({ free: { x: { y: 1, z: 2 } } }),
    managed: { alice: ['.spec.free.x', '.spec.free.x.y'], bob: ['.spec.free.x', '.spec.free.x.z'] },
  },
  {
    name: 'lists under preserve-unknown-fields are atomic',
    steps: [
      apply('alice', { free: { l: [1, 2] } }),
      apply('bob', { free: { l: [3] } }, { conflicts: ['"alice": .spec.free.l'] }),
    ],
  },
  {
    name: 'a null scalar removes the field but stays owned',
    steps: [apply('alice', { replicas: 1 }), apply('alice', { replicas: null })],
    object: widget({}),
    managed: { alice: ['.spec.replicas'] },
  },
  {
    name: 'a null struct leaves the live struct alone',
    steps: [apply('alice', { config: { a: 'x' } }), apply('bob', { config: null, image: 'b' })],
    object: widget({ config: { a: 'x' }, image: 'b' }),
    managed: { alice: ['.spec.config.a'], bob: ['.spec.image'] },
  },

  // Objects without a schema.
  {
    name: 'unstructured: keys are fields, containers are owned as members',
    type: unstructuredType(),
    steps: [apply('alice', { a: 1 })],
    managed: { alice: ['.spec', '.spec.a'] },
  },
  {
    name: 'unstructured: every list is atomic',
    type: unstructuredType(),
    steps: [
      apply('alice', { l: [{ n: 1 }] }),
      apply('bob', { l: [{ n: 2 }] }, { conflicts: ['"alice": .spec.l'] }),
    ],
  },
  {
    name: 'unstructured: a shared container survives one owner leaving',
    type: unstructuredType(),
    steps: [
      apply('alice', { a: 1 }),
      apply('bob', { b: 2 }),
      { apply: 'alice', config: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } },
    ],
    object: widget({ b: 2 }),
    managed: { bob: ['.spec', '.spec.b'] },
  },

  // Status subresource.
  {
    name: 'apply to the main resource ignores status',
    steps: [{ apply: 'alice', config: widget({ replicas: 1 }, { status: { phase: 'x' } }) }],
    object: widget({ replicas: 1 }),
    managed: { alice: ['.spec.replicas'] },
  },
  {
    name: 'a status writer owns status, recorded with its subresource',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'ctrl',
        subresource: 'status',
        object: (l) => ({ ...(l as KubeObject), status: { phase: 'Running' } }),
      },
    ],
    object: widget({ replicas: 1 }, { status: { phase: 'Running' } }),
    managed: { alice: ['.spec.replicas'], 'ctrl update /status': ['.status.phase'] },
    check: (o) =>
      expect(o?.metadata?.managedFields?.find((e) => e.manager === 'ctrl')?.subresource).toBe('status'),
  },
  {
    name: 'appliers to /status conflict over status, named with the subresource',
    steps: [
      apply('alice', { replicas: 1 }),
      { apply: 'ctrl', subresource: 'status', config: widget({}, { status: { phase: 'A' } }) },
      {
        apply: 'ctrl2',
        subresource: 'status',
        config: widget({}, { status: { phase: 'B' } }),
        conflicts: ['"ctrl" with subresource "status": .status.phase'],
      },
    ],
    managed: { alice: ['.spec.replicas'], 'ctrl /status': ['.status.phase'] },
  },
  {
    name: 'a /status write cannot take spec fields',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'ctrl',
        subresource: 'status',
        object: (l) => ({ ...(l as KubeObject), spec: { replicas: 9 }, status: { count: 1 } }),
      },
    ],
    object: widget({ replicas: 1 }, { status: { count: 1 } }),
    managed: { alice: ['.spec.replicas'], 'ctrl update /status': ['.status.count'] },
  },
  {
    name: 'a main-resource apply does not conflict with a status writer',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'ctrl',
        subresource: 'status',
        object: (l) => ({ ...(l as KubeObject), status: { phase: 'A' } }),
      },
      { apply: 'alice', config: widget({ replicas: 1 }, { status: { phase: 'B' } }) },
    ],
    object: widget({ replicas: 1 }, { status: { phase: 'A' } }),
    managed: { alice: ['.spec.replicas'], 'ctrl update /status': ['.status.phase'] },
  },
  {
    name: 'without a status subresource status is an ordinary field',
    type: widgetType({}, { statusSubresource: false }),
    steps: [{ apply: 'alice', config: widget({}, { status: { phase: 'x' } }) }],
    managed: { alice: ['.status.phase'] },
  },

  // Rule 6: schema changes without a version increase.
  {
    name: 'atomic → map list: the owner keeps the top level only, so no conflicts on items',
    type: itemsAtomic,
    steps: [
      apply('alice', { items: [item('a', { value: '1' })] }),
      apply('bob', { items: [item('a', { value: '2' })] }, { type: W }),
    ],
    object: widget({ items: [item('a', { value: '2' })] }),
    managed: { alice: ['.spec.items'], bob: itemPaths('a', 'value') },
  },
  {
    name: 'map → atomic list: everyone who owned an item owns the whole list',
    steps: [
      apply('alice', { items: [item('a')] }),
      apply('bob', { items: [item('b')] }),
      apply(
        'carol',
        { items: [item('c')] },
        { type: itemsAtomic, conflicts: ['"alice": .spec.items', '"bob": .spec.items'] },
      ),
      apply('alice', { items: [item('a')] }, { type: itemsAtomic, conflicts: ['"bob": .spec.items'] }),
    ],
    object: widget({ items: [item('a'), item('b')] }),
  },
  {
    name: 'granular → atomic map: every key owner owns the map',
    steps: [
      apply('alice', { labels: { a: '1' } }),
      apply('bob', { labels: { b: '2' } }),
      apply(
        'carol',
        { labels: { c: '3' } },
        { type: labelsAtomic, conflicts: ['"alice": .spec.labels', '"bob": .spec.labels'] },
      ),
    ],
  },
  {
    name: 'granular → atomic struct: every field owner owns the struct',
    steps: [
      apply('alice', { config: { a: 'x' } }),
      apply('bob', { config: { b: 'y' } }),
      apply(
        'carol',
        { config: { a: 'z' } },
        { type: configAtomic, conflicts: ['"alice": .spec.config', '"bob": .spec.config'] },
      ),
    ],
  },
  {
    name: 'atomic → granular map: no conflicts on keys',
    steps: [
      apply('alice', { selector: { a: '1' } }),
      apply('bob', { selector: { a: '2' } }, { type: selectorGranular }),
    ],
    object: widget({ selector: { a: '2' } }),
    managed: { alice: ['.spec.selector'], bob: ['.spec.selector.a'] },
  },
  {
    name: 'map → atomic list: the whole-list owner recorded after the change is the top level',
    steps: [
      apply('alice', { items: [item('a')] }),
      apply('alice', { items: [item('a')] }, { type: itemsAtomic }),
    ],
    managed: { alice: ['.spec.items'] },
  },

  // Rule 8: resetting managedFields.
  {
    name: 'a single empty entry resets; the writer owns only what it changes in the same request',
    steps: [
      apply('alice', { replicas: 1, image: 'a' }),
      {
        update: 'bob',
        object: (l) => ({
          ...(l as KubeObject),
          metadata: { name: 'w', managedFields: [{}] },
          spec: { replicas: 1, image: 'b' },
        }),
      },
    ],
    object: widget({ replicas: 1, image: 'b' }),
    managed: { 'bob update': ['.spec.image'] },
  },
  {
    name: 'an empty list does not reset',
    steps: [
      apply('alice', { replicas: 1, image: 'a' }),
      {
        update: 'bob',
        object: (l) => ({
          ...(l as KubeObject),
          metadata: { name: 'w', managedFields: [] },
          spec: { replicas: 1, image: 'b' },
        }),
      },
    ],
    managed: { alice: ['.spec.replicas'], 'bob update': ['.spec.image'] },
  },
  {
    name: 'a reset without other changes leaves no managedFields',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'bob',
        object: (l) => ({ ...(l as KubeObject), metadata: { name: 'w', managedFields: [{}] } }),
      },
    ],
    object: widget({ replicas: 1 }),
    managed: {},
    check: (o) => expect(o?.metadata?.managedFields).toBeUndefined(),
  },
  {
    name: 'after a reset later updates are recorded (the specification over the v1.28 server)',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'bob',
        object: (l) => ({ ...(l as KubeObject), metadata: { name: 'w', managedFields: [{}] } }),
      },
      update('carol', { replicas: 1, image: 'c' }),
    ],
    managed: { 'carol update': ['.spec.image'] },
  },
  {
    name: 'after a reset the first apply finds the existing fields owned by "before-first-apply"',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'bob',
        object: (l) => ({ ...(l as KubeObject), metadata: { name: 'w', managedFields: [{}] } }),
      },
      apply(
        'alice',
        { replicas: 2 },
        { conflicts: ['"before-first-apply" using example.com/v1: .spec.replicas'] },
      ),
      apply('alice', { replicas: 1 }),
    ],
    managed: { alice: ['.spec.replicas'], 'before-first-apply update': ['.spec.replicas'] },
  },
  {
    name: 'managedFields sent with an update replace the stored ones',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'bob',
        object: (l) => ({
          ...(l as KubeObject),
          metadata: {
            name: 'w',
            managedFields: [
              {
                manager: 'zed',
                operation: 'Apply',
                apiVersion: 'example.com/v1',
                fieldsType: 'FieldsV1',
                fieldsV1: { 'f:spec': { 'f:replicas': {} } },
              },
            ],
          },
          spec: { replicas: 1, image: 'b' },
        }),
      },
    ],
    managed: { zed: ['.spec.replicas'], 'bob update': ['.spec.image'] },
  },
  {
    name: 'managedFields sent with a /status write are ignored',
    steps: [
      apply('alice', { replicas: 1 }),
      {
        update: 'ctrl',
        subresource: 'status',
        object: (l) => ({
          ...(l as KubeObject),
          metadata: { name: 'w', managedFields: [{}] },
          status: { phase: 'A' },
        }),
      },
    ],
    managed: { alice: ['.spec.replicas'], 'ctrl update /status': ['.status.phase'] },
  },

  // Create, apply after create, built-in kinds.
  {
    name: 'create by update owns what it set; containers that appear are owned themselves',
    steps: [update('creator', { replicas: 1, labels: { a: '1' }, config: { a: 'x' }, items: [item('a')] })],
    managed: {
      'creator update': [
        '.spec.config',
        '.spec.config.a',
        '.spec.items',
        '.spec.labels',
        '.spec.labels.a',
        '.spec.replicas',
        ...itemPaths('a'),
      ],
    },
  },
  {
    name: 'custom resources are not Go structs: an updater owns `.spec` itself, and keeps it',
    type: widgetType({}, { goStructs: false }),
    steps: [update('bob', { replicas: 1 }), update('carol', { replicas: 2 })],
    managed: { 'bob update': ['.spec'], 'carol update': ['.spec.replicas'] },
  },
  {
    name: 'apply rejects a configuration of another kind',
    steps: [
      {
        apply: 'alice',
        config: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'w' } },
        error: /^invalid object type: example.com\/v1, Kind=Gadget$/,
      },
    ],
  },
  {
    name: 'apply rejects a configuration without apiVersion and kind',
    steps: [
      { apply: 'alice', config: { metadata: { name: 'w' } }, error: /^invalid object type: \/, Kind=$/ },
    ],
  },
  {
    name: 'apply rejects managedFields in the configuration',
    steps: [
      {
        apply: 'alice',
        config: { ...widget({}), metadata: { name: 'w', managedFields: [] } },
        error: /^metadata.managedFields must be nil$/,
      },
    ],
  },
  {
    name: 'apply rejects duplicate keys in a map list',
    steps: [
      apply(
        'alice',
        { items: [item('a'), item('a')] },
        {
          error:
            /^failed to create typed patch object \(\/w; example.com\/v1, Kind=Widget\): \.spec\.items: duplicate entries for key \[name="a"\]$/,
        },
      ),
    ],
  },
  {
    name: 'apply rejects a map-list item without its key',
    steps: [
      apply(
        'alice',
        { items: [{ value: '1' }] },
        {
          error:
            /\.spec\.items: element 0: associative list with keys has an element that omits key field "name" \(and doesn't have default value\)$/,
        },
      ),
    ],
  },
  {
    name: 'an update the field manager cannot read drops managedFields, as the real server does',
    steps: [apply('alice', { replicas: 1 }), update('bob', { replicas: 1, items: [item('a'), item('a')] })],
    managed: {},
  },
];

const defs = generatedDefinitions;
const deploymentType: ObjectType = {
  definitions: defs,
  root: { ref: 'api.apps.v1.Deployment' },
  goStructs: true,
  statusSubresource: true,
};
const configMapType: ObjectType = {
  definitions: defs,
  root: { ref: 'api.core.v1.ConfigMap' },
  goStructs: true,
};
const serviceType: ObjectType = {
  definitions: defs,
  root: { ref: 'api.core.v1.Service' },
  goStructs: true,
  statusSubresource: true,
};
const container = (name: string, fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  ...fields,
});
const c = (name: string, rest = ''): string => `.spec.template.spec.containers[name="${name}"]${rest}`;
const dApply = (manager: string, containers: unknown[], more: Partial<Step> = {}): Step =>
  ({ apply: manager, config: deployment(containers), ...more }) as Step;

interface BuiltInScenario extends Scenario {
  apiVersion: string;
  kind: string;
}

const builtIn: BuiltInScenario[] = [
  {
    name: 'Deployment: a create records what the real server records (kubectl create)',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      {
        update: 'kubectl-create',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
          spec: {
            replicas: 1,
            selector: { matchLabels: { app: 'web' } },
            strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: {
                containers: [{ name: 'nginx', image: 'nginx', resources: {} }],
                restartPolicy: 'Always',
              },
            },
          },
        },
      },
    ],
    check: (o) =>
      expect(o?.metadata?.managedFields?.[0]?.fieldsV1).toEqual({
        'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
        'f:spec': {
          'f:replicas': {},
          'f:selector': {},
          'f:strategy': {
            'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
            'f:type': {},
          },
          'f:template': {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
            'f:spec': {
              'f:containers': {
                'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:resources': {} },
              },
              'f:restartPolicy': {},
            },
          },
        },
      }),
  },
  {
    name: 'Deployment: containers merge by name (patchMergeKey, no list type)',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      dApply('alice', [container('a', { image: 'x' })]),
      dApply('bob', [container('b', { image: 'y' })]),
    ],
    check: (o) => {
      const containers = (
        (o?.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec.containers ?? []
      ).map((x) => x.name);
      expect(containers).toEqual(['a', 'b']);
      const owned = ownership(o);
      expect(owned.alice).toContain(c('a', '.image'));
      expect(owned.bob).toContain(c('b', '.image'));
      expect(owned.bob).toContain('.spec.selector');
    },
  },
  {
    name: 'Deployment: a container image owned by another applier conflicts by container name',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      dApply('alice', [container('a', { image: 'x' })]),
      dApply('bob', [container('a', { image: 'z' })], { conflicts: [`"alice": ${c('a', '.image')}`] }),
    ],
  },
  {
    name: 'Deployment: container ports are keyed by containerPort and the defaulted protocol',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      dApply('alice', [container('a', { ports: [{ containerPort: 80, name: 'http' }] })]),
      dApply('bob', [container('a', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'web' }] })], {
        conflicts: [`"alice": ${c('a', '.ports[containerPort=80,protocol="TCP"].name')}`],
      }),
    ],
    check: (o) =>
      expect(JSON.stringify(o?.metadata?.managedFields?.[0]?.fieldsV1)).toContain(
        '"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}"',
      ),
  },
  {
    name: 'Deployment: the label selector is atomic',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      dApply('alice', [container('a')]),
      {
        apply: 'bob',
        config: { ...deployment([container('a')]), spec: { selector: { matchLabels: { other: 'x' } } } },
        conflicts: ['"alice": .spec.selector'],
      },
    ],
  },
  {
    name: 'Deployment: a /scale write takes spec.replicas, recorded with subresource scale',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      { apply: 'alice', config: deployment([container('a')], { replicas: 3 }) },
      {
        update: 'kubectl',
        subresource: 'scale',
        object: (l) => ({
          ...(l as KubeObject),
          spec: { ...((l as KubeObject).spec as object), replicas: 5 },
        }),
      },
      {
        apply: 'alice',
        config: deployment([container('a')], { replicas: 3 }),
        conflicts: ['"kubectl" with subresource "scale" using apps/v1: .spec.replicas'],
      },
    ],
    check: (o) => expect(ownership(o)['kubectl update /scale']).toEqual(['.spec.replicas']),
  },
  {
    name: 'Deployment: metadata labels are owned per key, metadata name and namespace never',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    type: deploymentType,
    steps: [
      {
        apply: 'alice',
        config: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'default', labels: { a: '1' }, finalizers: ['x'] },
        },
      },
    ],
    managed: { alice: ['.metadata.finalizers[="x"]', '.metadata.labels.a'] },
  },
  {
    name: 'ConfigMap: data is a granular map',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    type: configMapType,
    steps: [
      {
        apply: 'alice',
        config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1' } },
      },
      {
        apply: 'bob',
        config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { b: '2' } },
      },
      {
        apply: 'bob',
        config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '9' } },
        conflicts: ['"alice": .data.a'],
      },
    ],
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '1', b: '2' } },
  },
  {
    name: 'Service: ports are keyed by port and protocol',
    apiVersion: 'v1',
    kind: 'Service',
    type: serviceType,
    steps: [
      {
        apply: 'alice',
        config: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 's' },
          spec: { ports: [{ port: 80, targetPort: 8080 }] },
        },
      },
      {
        apply: 'bob',
        config: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 's' },
          spec: { ports: [{ port: 80, protocol: 'UDP', targetPort: 53 }] },
        },
      },
    ],
    managed: {
      alice: [
        '.spec.ports[port=80,protocol="TCP"]',
        '.spec.ports[port=80,protocol="TCP"].port',
        '.spec.ports[port=80,protocol="TCP"].targetPort',
      ],
      bob: [
        '.spec.ports[port=80,protocol="UDP"]',
        '.spec.ports[port=80,protocol="UDP"].port',
        '.spec.ports[port=80,protocol="UDP"].protocol',
        '.spec.ports[port=80,protocol="UDP"].targetPort',
      ],
    },
  },
  {
    name: 'kubectl takes over fields its client-side apply set, without conflict',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    type: configMapType,
    steps: [
      {
        update: 'kubectl-client-side-apply',
        object: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'c',
            annotations: {
              [lastApplied]:
                '{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"name":"c"}}\n',
            },
          },
          data: { a: '1' },
        },
      },
      {
        apply: 'kubectl',
        config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2' } },
      },
    ],
    check: (o) => {
      expect((o as { data: unknown }).data).toEqual({ a: '2' });
      expect(ownership(o).kubectl).toEqual(['.data.a']);
      expect(o?.metadata?.annotations?.[lastApplied]).toBe(
        '{"apiVersion":"v1","data":{"a":"2"},"kind":"ConfigMap","metadata":{"name":"c"}}\n',
      );
    },
  },
  {
    name: 'kubectl still conflicts on fields its client-side apply did not set',
    apiVersion: 'v1',
    kind: 'ConfigMap',
    type: configMapType,
    steps: [
      {
        update: 'kubectl-client-side-apply',
        object: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'c',
            annotations: {
              [lastApplied]:
                '{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"name":"c"}}\n',
            },
          },
          data: { a: '1' },
        },
      },
      { update: 'editor', object: (l) => ({ ...(l as KubeObject), data: { a: '1', b: '1' } }) },
      {
        apply: 'kubectl',
        config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: '2', b: '2' } },
        conflicts: ['"editor" using v1: .data.b'],
      },
    ],
  },
];

describe('apply scenarios', () => {
  it('has at least 60 scenarios', () => {
    expect(scenarios.length + builtIn.length).toBeGreaterThanOrEqual(60);
  });
  for (const s of [...scenarios, ...builtIn]) {
    it(s.name, () => {
      const f =
        'kind' in s
          ? new Fixture(s.type ?? W, (s as BuiltInScenario).apiVersion, (s as BuiltInScenario).kind)
          : new Fixture(s.type ?? W);
      s.steps.forEach((step, i) => {
        const r = f.run(step);
        if (step.error !== undefined) {
          expect(r.ok, `step ${i} should fail`).toBe(false);
          expect(r.message).toMatch(step.error);
        } else if (step.conflicts !== undefined) {
          expect(r.conflicts, `step ${i} conflicts`).toEqual(step.conflicts);
        } else expect(r, `step ${i}`).toEqual({ ok: true });
      });
      if (s.object !== undefined) expect(payload(f.live)).toEqual(s.object);
      if (s.managed !== undefined)
        expect(ownership(f.live)).toEqual(
          Object.fromEntries(Object.entries(s.managed).map(([k, v]) => [k, [...v].sort()])),
        );
      s.check?.(f.live);
    });
  }
});
