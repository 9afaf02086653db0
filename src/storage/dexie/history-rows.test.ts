// The history stored without the objects its changes wrote (decision 0079): every way of reading it back gives
// the objects the commit listeners got, a store an earlier build wrote opens and reads as before (a watch resumes
// across the upgrade), and exports carry every object, as before.
import { Dexie } from 'dexie';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/meta';
import type { ChangeRecord } from '../types';
import { createDexieStorage } from './dexie-storage';
import { openDatabase } from './schema';

let databases = 0;
const name = () => `history-rows-test-${++databases}`;
const thing = (n: string, spec?: number): KubeObject => ({
  kind: 'Thing',
  metadata: { name: n },
  ...(spec === undefined ? {} : { spec: { n: spec } }),
});

async function rawChanges(database: string): Promise<Record<string, unknown>[]> {
  const db = openDatabase(database, { indexedDB, IDBKeyRange, cache: 'disabled' });
  try {
    return (await db.changes.toArray()) as unknown as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

describe('history rows without their objects', () => {
  it('store each object once, and every window of the history reads back what the listeners got', async () => {
    const database = name();
    const store = createDexieStorage({ name: database, indexedDB, IDBKeyRange });
    const heard: ChangeRecord[] = [];
    store.onCommit((change) => heard.push(structuredClone(change)));
    await store.create('/a/x', thing('x', 1));
    await store.update('/a/x', thing('x', 2), 1);
    await store.create('/a/y', thing('y'));
    await store.update('/a/x', thing('x', 3), 2);
    await store.delete('/a/y');
    await store.create('/a/y', thing('y', 9));
    await store.delete('/a/x');
    await store.close();

    const rows = await rawChanges(database);
    expect(rows.map((row) => 'object' in row)).toEqual(rows.map(() => false));
    expect(rows.map((row) => row['previous'] !== undefined)).toEqual([
      false,
      true,
      false,
      true,
      true,
      false,
      true,
    ]);

    const again = createDexieStorage({ name: database, indexedDB, IDBKeyRange });
    expect(await again.changesSince(0)).toEqual(heard);
    // One change at a time: its object comes from the current row or the key's next change, not from the batch.
    for (let after = 0; after < heard.length; after++)
      expect(await again.changesSince(after, 1), `after ${after}`).toEqual([heard[after]]);
    // Records share no object: a reader changing one changes no other.
    const [first, second] = await again.changesSince(0, 2);
    expect(first?.object).toEqual(second?.previous);
    expect(first?.object).not.toBe(second?.previous);
    await again.compact(3);
    expect(await again.changesSince(3)).toEqual(heard.slice(3));
    await again.close();
  });

  it('export every change with its object, as the format always had it, and import it back', async () => {
    const store = createDexieStorage({ name: name(), indexedDB, IDBKeyRange });
    await store.create('/a/x', thing('x', 1));
    await store.update('/a/x', thing('x', 2), 1);
    await store.delete('/a/x');
    await store.create('/a/x', thing('x', 4));
    const history = await store.changesSince(0);
    const document = JSON.parse(await (await store.exportState()).text()) as {
      data: { databaseVersion: number; data: { tableName: string; rows: Record<string, unknown>[] }[] };
    };
    expect(document.data.databaseVersion).toBe(1);
    const rows = document.data.data.find((t) => t.tableName === 'changes')?.rows ?? [];
    expect(rows).toEqual(history);
    expect(rows.map((row) => Object.keys(row).slice(0, 4))).toEqual(
      rows.map(() => ['revision', 'type', 'key', 'object']),
    );
    const other = createDexieStorage({ name: name(), indexedDB, IDBKeyRange });
    await other.importState(await store.exportState());
    expect(await other.changesSince(0)).toEqual(history);
    expect((await other.create('/a/z', thing('z'))).revision).toBe(5);
    await Promise.all([store.close(), other.close()]);
  });

  it('open a store an earlier build wrote: objects, revisions and history kept, a watch resumes across it', async () => {
    const database = name();
    // A store as the previous build wrote it: every change row holds its object.
    const old = new Dexie(database, { indexedDB, IDBKeyRange, cache: 'disabled' });
    old
      .version(1)
      .stores({ objects: 'key', changes: 'revision, [key+revision]', meta: 'name', settings: 'name' });
    const at = (object: KubeObject, revision: number): KubeObject => ({
      ...object,
      metadata: { ...object.metadata, resourceVersion: String(revision) },
    });
    const x1 = at(thing('x', 1), 1);
    const x2 = at(thing('x', 2), 2);
    const y3 = at(thing('y'), 3);
    await old.table('objects').bulkAdd([
      { key: '/a/x', revision: 2, object: x2 },
      { key: '/a/y', revision: 3, object: y3 },
    ]);
    await old.table('changes').bulkAdd([
      { revision: 1, type: 'ADDED', key: '/a/x', object: x1 },
      { revision: 2, type: 'MODIFIED', key: '/a/x', object: x2, previous: x1 },
      { revision: 3, type: 'ADDED', key: '/a/y', object: y3 },
    ]);
    await old.table('meta').put({ name: 'revision', value: 3 });
    old.close();

    const store = createDexieStorage({ name: database, indexedDB, IDBKeyRange });
    expect(await store.currentRevision()).toBe(3);
    expect((await store.get('/a/x'))?.object).toEqual(x2);
    expect((await store.getAt('/a/x', 1))?.object).toEqual(x1);
    expect((await store.list({ prefix: '/a/' })).items.map((i) => [i.key, i.revision])).toEqual([
      ['/a/x', 2],
      ['/a/y', 3],
    ]);
    // New writes after the upgrade, then a watch from revision 1 (before it) reads old and new rows alike.
    const x4 = (await store.update('/a/x', thing('x', 4), 2)).object;
    await store.delete('/a/y', 3);
    expect(await store.changesSince(1)).toEqual([
      { revision: 2, type: 'MODIFIED', key: '/a/x', object: x2, previous: x1 },
      { revision: 3, type: 'ADDED', key: '/a/y', object: y3 },
      { revision: 4, type: 'MODIFIED', key: '/a/x', object: x4, previous: x2 },
      { revision: 5, type: 'DELETED', key: '/a/y', object: at(y3, 5), previous: y3 },
    ]);
    // The export holds every row in the earlier format, whichever build wrote it.
    const document = JSON.parse(await (await store.exportState()).text()) as {
      data: { data: { tableName: string; rows: unknown[] }[] };
    };
    expect(document.data.data.find((t) => t.tableName === 'changes')?.rows).toEqual(
      await store.changesSince(0),
    );
    // The earlier build's revision row is left as it was (3): the history's last key is the revision, in this
    // handle, in the export's `meta` row, in a list, and in a handle opened afterwards, whose next write takes 6.
    expect(document.data.data.find((t) => t.tableName === 'meta')?.rows).toEqual([
      { name: 'revision', value: 5 },
    ]);
    expect((await store.list({ prefix: '/a/' })).revision).toBe(5);
    await store.close();
    const reopened = createDexieStorage({ name: database, indexedDB, IDBKeyRange });
    expect(await reopened.currentRevision()).toBe(5);
    expect((await reopened.create('/a/z', thing('z'))).revision).toBe(6);
    expect(await reopened.currentRevision()).toBe(6);
    await reopened.close();
  });
});
