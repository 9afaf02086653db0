// The explorer's row store: rows kept in name order by binary insertion, checked against sorting from scratch.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '../../api/meta';
import { RowStore } from './row-store';

const object = (name: string, namespace = 'default', resourceVersion = '1'): KubeObject => ({
  metadata: { name, namespace, resourceVersion },
});
const names = (store: RowStore) => store.slice(0, store.size).map((row) => row.object.metadata?.name);

describe('RowStore', () => {
  it('sorts a listed Table once, by namespace then name', () => {
    const store = new RowStore();
    store.reset([
      { cells: ['b'], object: object('b', 'x') },
      { cells: ['a'], object: object('a', 'y') },
      { cells: ['c'], object: object('c', 'x') },
    ]);
    expect(store.keys()).toEqual(['x/b', 'x/c', 'y/a']);
    expect(store.at(1)?.cells).toEqual(['c']);
  });

  it('inserts new rows in order and replaces existing ones in place', () => {
    const store = new RowStore();
    for (const name of ['m', 'c', 'x', 'a']) store.upsert(object(name), [name]);
    expect(names(store)).toEqual(['a', 'c', 'm', 'x']);
    store.upsert(object('c', 'default', '7'), undefined);
    expect(names(store)).toEqual(['a', 'c', 'm', 'x']);
    // An event without cells keeps the last server-rendered ones until the server renders again.
    expect(store.get('default/c')?.cells).toEqual(['c']);
    expect(store.get('default/c')?.object.metadata?.resourceVersion).toBe('7');
  });

  it('removes rows and ignores unknown ones', () => {
    const store = new RowStore();
    for (const name of ['a', 'b', 'c']) store.upsert(object(name), undefined);
    store.remove(object('b'));
    const version = store.version;
    store.remove(object('zzz'));
    expect(store.version).toBe(version);
    expect(names(store)).toEqual(['a', 'c']);
    expect(store.has('default/b')).toBe(false);
  });

  it('refreshes only rows that are still there', () => {
    const store = new RowStore();
    store.upsert(object('a'), undefined);
    expect(store.refresh(object('a'), ['rendered'])).toBe(true);
    expect(store.refresh(object('gone'), ['late'])).toBe(false);
    expect(store.size).toBe(1);
    expect(store.get('default/a')?.cells).toEqual(['rendered']);
  });

  it('counts every change in its version', () => {
    const store = new RowStore();
    const start = store.version;
    store.upsert(object('a'), undefined);
    store.upsert(object('a'), undefined);
    store.remove(object('a'));
    store.clear();
    expect(store.version).toBe(start + 4);
  });

  it('keeps the same order as sorting from scratch, whatever the events', () => {
    const event = fc.record({
      deleted: fc.boolean(),
      name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
      namespace: fc.constantFrom('', 'default', 'kube-system'),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const store = new RowStore();
        const model = new Set<string>();
        for (const e of events) {
          const o = object(e.name, e.namespace);
          const key = `${e.namespace}/${e.name}`;
          if (e.deleted) {
            store.remove(o);
            model.delete(key);
          } else {
            store.upsert(o, undefined);
            model.add(key);
          }
        }
        expect(store.keys()).toEqual([...model].sort());
        expect(store.slice(0, store.size).map((row) => row.key)).toEqual([...model].sort());
      }),
    );
  });
});
