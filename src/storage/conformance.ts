/**
 * The conformance suite every storage backend must pass, after the pattern of
 * the upstream server's storage tests (pkg/storage/testing/store_tests.go):
 * the revision sequence, compare-and-swap writes and their error codes, the
 * change history, paging, reads at past revisions, compaction, settings and
 * copy semantics, plus a seeded randomized run checked against a model
 * rebuilt from the change history. A backend's test file calls
 * `describeStorageConformance` with a factory that opens a fresh, empty store.
 */

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../api/meta';
import { initialSetting, initialSettings, readSettings } from './settings';
import {
  StorageError,
  type ChangeRecord,
  type Storage,
  type StorageErrorCode,
  type StoredObject,
} from './types';

/** What a backend may do differently and still conform. */
export interface ConformanceOptions {
  /**
   * Settings writes take a revision of the store's sequence, leaving a gap
   * in it (etcd, where every put takes a revision, as the real server's
   * non-object writes leave gaps in resourceVersions). They still make no
   * change record, notify nobody and never move the revision backwards.
   */
  settingsTakeRevisions?: boolean;
}

export function describeStorageConformance(
  name: string,
  factory: () => Promise<Storage>,
  conformance: ConformanceOptions = {},
): void {
  describe(`storage conformance: ${name}`, () => {
    let store: Storage;
    beforeEach(async () => {
      store = await factory();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('revisions', () => {
      it('starts empty at revision 0', async () => {
        expect(await store.currentRevision()).toBe(0);
        expect(await store.compactedRevision()).toBe(0);
        expect(await store.get('/a/x')).toBeUndefined();
        expect(await store.changesSince(0)).toEqual([]);
        expect(await store.list({ prefix: '/a/' })).toEqual({ items: [], revision: 0, more: false });
      });

      it('gives each write the next revision and stamps it into resourceVersion', async () => {
        const created = await store.create('/a/x', thing('x'));
        expect(created.revision).toBe(1);
        expect(created.key).toBe('/a/x');
        expect(created.object.metadata?.resourceVersion).toBe('1');
        const bare = await store.create('/a/y', { kind: 'Bare' });
        expect(bare.object).toEqual({ kind: 'Bare', metadata: { resourceVersion: '2' } });
        const updated = await store.update('/a/x', thing('x', 5), 1);
        expect(updated.revision).toBe(3);
        expect(updated.object).toEqual({ ...thing('x', 5), metadata: { name: 'x', resourceVersion: '3' } });
        const deleted = await store.delete('/a/y');
        expect(deleted.revision).toBe(4);
        expect(deleted.object.metadata?.resourceVersion).toBe('4');
        expect(await store.currentRevision()).toBe(4);
        expect(await store.get('/a/x')).toEqual(updated);
      });

      it('ignores the resourceVersion the caller sent and leaves the caller’s object alone', async () => {
        const input = { ...thing('x'), metadata: { name: 'x', resourceVersion: '999' } };
        const created = await store.create('/a/x', input);
        expect(created.object.metadata?.resourceVersion).toBe('1');
        expect(input.metadata.resourceVersion).toBe('999');
      });
    });

    describe('writes', () => {
      it('create fails with KeyExists, carrying the stored object', async () => {
        const first = await store.create('/a/x', thing('x', 1));
        const error = await storageError(store.create('/a/x', thing('x', 2)), 'KeyExists');
        expect(error.current).toEqual(first);
      });

      it('update fails with NotFound and RevisionMismatch', async () => {
        await storageError(store.update('/a/x', thing('x'), 1), 'NotFound');
        const first = await store.create('/a/x', thing('x'));
        const error = await storageError(store.update('/a/x', thing('x', 2), 7), 'RevisionMismatch');
        expect(error.current).toEqual(first);
        expect(await store.get('/a/x')).toEqual(first);
      });

      it('delete fails with NotFound and RevisionMismatch, and without a revision deletes unconditionally', async () => {
        await storageError(store.delete('/a/x'), 'NotFound');
        await storageError(store.delete('/a/x', 1), 'NotFound');
        const first = await store.create('/a/x', thing('x'));
        const error = await storageError(store.delete('/a/x', 5), 'RevisionMismatch');
        expect(error.current).toEqual(first);
        const deleted = await store.delete('/a/x', 1);
        expect(deleted).toEqual({ key: '/a/x', revision: 2, object: stamped(first.object, 2) });
        expect(await store.get('/a/x')).toBeUndefined();
        await store.create('/a/x', thing('x'));
        expect((await store.delete('/a/x')).revision).toBe(4);
      });

      it('a key can be created again after its deletion', async () => {
        await store.create('/a/x', thing('x', 1));
        await store.delete('/a/x');
        const again = await store.create('/a/x', thing('x', 2));
        expect(again.revision).toBe(3);
        expect(await store.get('/a/x')).toEqual(again);
      });

      it('failed writes consume no revision, leave no change record and notify nobody', async () => {
        const seen: number[] = [];
        store.onCommit((change) => seen.push(change.revision));
        await store.create('/a/x', thing('x'));
        const history = await store.changesSince(0);

        await storageError(store.create('/a/x', thing('x')), 'KeyExists');
        await storageError(store.update('/a/y', thing('y'), 1), 'NotFound');
        await storageError(store.update('/a/x', thing('x'), 9), 'RevisionMismatch');
        await storageError(store.delete('/a/y'), 'NotFound');
        await storageError(store.delete('/a/x', 9), 'RevisionMismatch');
        // A value IndexedDB cannot store makes the backend fail: Internal, and nothing written.
        const unstorable = { ...thing('z'), spec: { f: () => 1 } } as unknown as KubeObject;
        await storageError(store.create('/a/z', unstorable), 'Internal');
        await storageError(store.update('/a/x', unstorable, 1), 'Internal');

        expect(await store.currentRevision()).toBe(1);
        expect(await store.changesSince(0)).toEqual(history);
        expect(await store.get('/a/z')).toBeUndefined();
        expect((await store.get('/a/x'))?.revision).toBe(1);
        expect((await store.create('/a/y', thing('y'))).revision).toBe(2);
        expect(seen).toEqual([1, 2]);
      });

      it('of N concurrent updates with the same expected revision exactly one wins', async () => {
        const { revision } = await store.create('/a/x', thing('x'));
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => store.update('/a/x', thing('x', i), revision)),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(9);
        for (const reason of lost) expect((reason as StorageError).code).toBe('RevisionMismatch');
        expect(await store.currentRevision()).toBe(2);
      });

      it('of N concurrent conditional deletes exactly one wins', async () => {
        const { revision } = await store.create('/a/x', thing('x'));
        const results = await Promise.allSettled(
          Array.from({ length: 5 }, () => store.delete('/a/x', revision)),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect(await store.currentRevision()).toBe(2);
      });

      it('200 concurrent creates take revisions 1..200 and are announced in revision order', async () => {
        const announced: number[] = [];
        store.onCommit((change) => announced.push(change.revision));
        const created = await Promise.all(
          Array.from({ length: 200 }, (_, i) => store.create(`/a/${pad(i)}`, thing(pad(i)))),
        );
        const revisions = created.map((c) => c.revision).sort((a, b) => a - b);
        expect(revisions).toEqual(range(1, 200));
        expect(announced).toEqual(range(1, 200));
        expect((await store.changesSince(0)).map((c) => c.revision)).toEqual(range(1, 200));
        expect(await store.count('/a/')).toBe(200);
      });
    });

    describe('commit listeners', () => {
      it('receive each committed change once, after it is readable', async () => {
        const changes: ChangeRecord[] = [];
        const readable: Array<Promise<boolean>> = [];
        store.onCommit((change) => changes.push(change));
        store.onCommit((change) => {
          readable.push(store.get(change.key).then((got) => (change.type === 'DELETED' ? !got : !!got)));
        });
        const created = await store.create('/a/x', thing('x'));
        const updated = await store.update('/a/x', thing('x', 2), 1);
        const deleted = await store.delete('/a/x');
        expect(changes).toEqual([
          { revision: 1, type: 'ADDED', key: '/a/x', object: created.object },
          { revision: 2, type: 'MODIFIED', key: '/a/x', object: updated.object, previous: created.object },
          { revision: 3, type: 'DELETED', key: '/a/x', object: deleted.object, previous: updated.object },
        ]);
        expect(await Promise.all(readable)).toEqual([true, true, true]);
      });

      it('stop after unsubscribing', async () => {
        const seen: number[] = [];
        const unsubscribe = store.onCommit((change) => seen.push(change.revision));
        await store.create('/a/x', thing('x'));
        unsubscribe();
        await store.create('/a/y', thing('y'));
        expect(seen).toEqual([1]);
      });

      it('a failing listener fails neither the write nor the other listeners', async () => {
        const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
        try {
          const seen: number[] = [];
          store.onCommit(() => {
            throw new Error('listener bug');
          });
          store.onCommit((change) => seen.push(change.revision));
          expect((await store.create('/a/x', thing('x'))).revision).toBe(1);
          expect(seen).toEqual([1]);
        } finally {
          quiet.mockRestore();
        }
      });

      it('see the changes of writes issued by a listener after the change that caused them', async () => {
        const seen: string[] = [];
        const nested: Array<Promise<unknown>> = [];
        store.onCommit((change) => {
          if (change.key === '/a/x') nested.push(store.create('/a/y', thing('y')));
        });
        store.onCommit((change) => seen.push(`${change.revision}${change.key}`));
        await store.create('/a/x', thing('x'));
        await Promise.all(nested);
        await store.create('/a/z', thing('z'));
        expect(seen).toEqual(['1/a/x', '2/a/y', '3/a/z']);
      });
    });

    describe('list', () => {
      beforeEach(async () => {
        for (let i = 0; i < 25; i++) await store.create(`/a/${pad(i)}`, thing(pad(i), i));
        // Neighbours of the collection that a prefix must not catch.
        await store.create('/ab/00', thing('00'));
        await store.create('/a', thing('a'));
        await store.create('/b/00', thing('00'));
      });

      it('returns a whole collection in key order at the current revision', async () => {
        const all = await store.list({ prefix: '/a/' });
        expect(all.items.map((i) => i.key)).toEqual(range(0, 24).map((i) => `/a/${pad(i)}`));
        expect(all.items.map((i) => i.revision)).toEqual(range(1, 25));
        expect(all.revision).toBe(28);
        expect(all.more).toBe(false);
        expect(all.remaining).toBeUndefined();
        expect(await store.count('/a/')).toBe(25);
        expect(await store.count('/ab/')).toBe(1);
        expect(await store.count('/c/')).toBe(0);
      });

      it('pages with limit, after, more and remaining', async () => {
        const keys: string[] = [];
        let after: string | undefined;
        const pages: Array<{ n: number; more: boolean; remaining?: number }> = [];
        do {
          const page = await store.list({ prefix: '/a/', limit: 10, after, countRemaining: true });
          keys.push(...page.items.map((i) => i.key));
          pages.push({ n: page.items.length, more: page.more, remaining: page.remaining });
          after = page.more ? page.items.at(-1)?.key : undefined;
        } while (after !== undefined);
        expect(keys).toEqual(range(0, 24).map((i) => `/a/${pad(i)}`));
        expect(pages).toEqual([
          { n: 10, more: true, remaining: 15 },
          { n: 10, more: true, remaining: 5 },
          { n: 5, more: false, remaining: 0 },
        ]);
      });

      it('reports more without counting unless asked, and handles exact and oversized limits', async () => {
        const page = await store.list({ prefix: '/a/', limit: 24 });
        expect(page.more).toBe(true);
        expect(page.remaining).toBeUndefined();
        const exact = await store.list({ prefix: '/a/', limit: 25, countRemaining: true });
        expect([exact.items.length, exact.more, exact.remaining]).toEqual([25, false, 0]);
        const over = await store.list({ prefix: '/a/', limit: 100 });
        expect([over.items.length, over.more]).toEqual([25, false]);
      });

      it('treats `after` as exclusive, and keys outside the prefix as bounds only', async () => {
        const page = await store.list({ prefix: '/a/', after: '/a/0010', limit: 2 });
        expect(page.items.map((i) => i.key)).toEqual(['/a/0011', '/a/0012']);
        const between = await store.list({ prefix: '/a/', after: '/a/0010x', limit: 1 });
        expect(between.items.map((i) => i.key)).toEqual(['/a/0011']);
        const before = await store.list({ prefix: '/a/', after: '/', limit: 1 });
        expect(before.items.map((i) => i.key)).toEqual(['/a/0000']);
        const beyond = await store.list({ prefix: '/a/', after: '/b/', countRemaining: true });
        expect(beyond).toEqual({ items: [], revision: 28, more: false, remaining: 0 });
        const last = await store.list({ prefix: '/a/', after: '/a/0024', limit: 5 });
        expect([last.items.length, last.more]).toEqual([0, false]);
      });

      it('counts only matching items towards limit and remaining when a predicate is given', async () => {
        const predicate = (object: KubeObject) => (spec(object) ?? 0) % 3 === 0;
        const first = await store.list({ prefix: '/a/', limit: 4, predicate, countRemaining: true });
        expect(first.items.map((i) => spec(i.object))).toEqual([0, 3, 6, 9]);
        expect([first.more, first.remaining]).toEqual([true, 5]);
        const second = await store.list({
          prefix: '/a/',
          limit: 4,
          predicate,
          after: first.items.at(-1)?.key,
          countRemaining: true,
        });
        expect(second.items.map((i) => spec(i.object))).toEqual([12, 15, 18, 21]);
        expect([second.more, second.remaining]).toEqual([true, 1]);
        const third = await store.list({
          prefix: '/a/',
          limit: 4,
          predicate,
          after: second.items.at(-1)?.key,
        });
        expect(third.items.map((i) => spec(i.object))).toEqual([24]);
        expect(third.more).toBe(false);
        // Non-matching items after the last match do not make `more` true.
        const none = await store.list({ prefix: '/a/', limit: 8, predicate, countRemaining: true });
        expect([none.items.length, none.more, none.remaining]).toEqual([8, true, 1]);
        const rare = await store.list({ prefix: '/a/', limit: 9, predicate: (o) => spec(o) === 24 });
        expect([rare.items.length, rare.more]).toEqual([1, false]);
      });
    });

    describe('reads at past revisions', () => {
      // 1 a, 2 b, 3 a', 4 -b, 5 c, 6 d, 7 -d, 8 b'', 9 a''
      let history: StoredObject[];
      beforeEach(async () => {
        history = [];
        history.push(await store.create('/s/a', thing('a', 1)));
        history.push(await store.create('/s/b', thing('b', 2)));
        history.push(await store.update('/s/a', thing('a', 3), 1));
        history.push(await store.delete('/s/b', 2));
        history.push(await store.create('/s/c', thing('c', 5)));
        history.push(await store.create('/s/d', thing('d', 6)));
        history.push(await store.delete('/s/d'));
        history.push(await store.create('/s/b', thing('b', 8)));
        history.push(await store.update('/s/a', thing('a', 9), 3));
      });
      const at = (r: number) => history[r - 1] as StoredObject;
      const expected: Record<number, number[]> = {
        0: [],
        1: [1],
        2: [1, 2],
        3: [3, 2],
        4: [3],
        5: [3, 5],
        6: [3, 5, 6],
        7: [3, 5],
        8: [3, 8, 5],
        9: [9, 8, 5],
      };

      it('list returns the collection exactly as it was at each revision', async () => {
        for (let r = 0; r <= 9; r++) {
          const listed = await store.list({ prefix: '/s/', revision: r });
          expect(listed.revision).toBe(r);
          expect(listed.items, `at revision ${r}`).toEqual((expected[r] ?? []).map(at));
        }
      });

      it('pages at a past revision while writes go on', async () => {
        const first = await store.list({ prefix: '/s/', revision: 6, limit: 2, countRemaining: true });
        expect(first.items).toEqual([at(3), at(5)]);
        expect([first.more, first.remaining]).toEqual([true, 1]);
        await store.delete('/s/c');
        await store.create('/s/e', thing('e'));
        const second = await store.list({
          prefix: '/s/',
          revision: 6,
          limit: 2,
          after: '/s/b',
          countRemaining: true,
        });
        expect(second.items).toEqual([at(5), at(6)]);
        expect([second.more, second.remaining]).toEqual([false, 0]);
        const counted = await store.list({ prefix: '/s/', revision: 4, limit: 1, countRemaining: true });
        expect([counted.items, counted.more, counted.remaining]).toEqual([[at(3)], false, 0]);
        const filtered = await store.list({
          prefix: '/s/',
          revision: 8,
          limit: 1,
          predicate: (o) => (spec(o) ?? 0) > 4,
          countRemaining: true,
        });
        expect([filtered.items, filtered.more, filtered.remaining]).toEqual([[at(8)], true, 1]);
      });

      it('getAt returns each key as it was, with its mod revision', async () => {
        const keys = ['/s/a', '/s/b', '/s/c', '/s/d', '/s/e'];
        for (let r = 0; r <= 9; r++) {
          for (const key of keys) {
            const want = (expected[r] ?? []).map(at).find((s) => s.key === key);
            expect(await store.getAt(key, r), `${key} at ${r}`).toEqual(want);
          }
        }
      });

      it('refuses revisions in the future', async () => {
        await storageError(store.list({ prefix: '/s/', revision: 10 }), 'FutureRevision');
        await storageError(store.getAt('/s/a', 10), 'FutureRevision');
        await storageError(store.changesSince(10), 'FutureRevision');
      });

      it('after compaction refuses revisions before it and still serves those after', async () => {
        await store.compact(4);
        expect(await store.compactedRevision()).toBe(4);
        await storageError(store.list({ prefix: '/s/', revision: 3 }), 'Compacted');
        await storageError(store.getAt('/s/a', 3), 'Compacted');
        await storageError(store.changesSince(3), 'Compacted');
        for (let r = 4; r <= 9; r++) {
          expect((await store.list({ prefix: '/s/', revision: r })).items).toEqual(
            (expected[r] ?? []).map(at),
          );
        }
        expect(await store.getAt('/s/d', 6)).toEqual(at(6));
        expect((await store.changesSince(4)).map((c) => c.revision)).toEqual([5, 6, 7, 8, 9]);
        // Compacting backwards changes nothing; compacting to the future is refused.
        await store.compact(2);
        expect(await store.compactedRevision()).toBe(4);
        await storageError(store.compact(10), 'FutureRevision');
        await store.compact(9);
        expect(await store.changesSince(9)).toEqual([]);
        expect((await store.list({ prefix: '/s/', revision: 9 })).items).toEqual((expected[9] ?? []).map(at));
        expect(await store.compactedRevision()).toBe(9);
      });
    });

    describe('change history', () => {
      it('records type, object and previous; DELETED carries the last state stamped with its revision', async () => {
        const a = await store.create('/a/x', thing('x', 1));
        const b = await store.update('/a/x', thing('x', 2), 1);
        await store.create('/a/y', thing('y'));
        const c = await store.delete('/a/x', 2);
        expect(await store.changesSince(0)).toEqual([
          { revision: 1, type: 'ADDED', key: '/a/x', object: a.object },
          { revision: 2, type: 'MODIFIED', key: '/a/x', object: b.object, previous: a.object },
          { revision: 3, type: 'ADDED', key: '/a/y', object: stamped(thing('y'), 3) },
          { revision: 4, type: 'DELETED', key: '/a/x', object: stamped(b.object, 4), previous: b.object },
        ]);
        expect(c.object).toEqual(stamped(b.object, 4));
        expect((await store.changesSince(1, 2)).map((r) => r.revision)).toEqual([2, 3]);
        expect(await store.changesSince(4)).toEqual([]);
      });
    });

    describe('settings', () => {
      it('keeps small values outside the revision sequence', async () => {
        expect(await store.getSetting('missing')).toBeUndefined();
        await store.setSetting('keys', { signing: 'abc', list: [1, 2] });
        await store.setSetting('flag', true);
        expect(await store.getSetting('keys')).toEqual({ signing: 'abc', list: [1, 2] });
        expect(await store.getSetting<boolean>('flag')).toBe(true);
        await store.setSetting('flag', false);
        expect(await store.getSetting('flag')).toBe(false);
        if (conformance.settingsTakeRevisions) expect(await store.currentRevision()).toBeLessThanOrEqual(3);
        else expect(await store.currentRevision()).toBe(0);
        expect(await store.changesSince(0)).toEqual([]);
      });

      it('reads several settings together as it reads them one by one', async () => {
        await store.setSetting('keys', { signing: 'abc', list: [1, 2] });
        await store.setSetting('flag', false);
        const names = ['keys', 'missing', 'flag'];
        const expected = [{ signing: 'abc', list: [1, 2] }, undefined, false];
        // The backend's own batch read, where it has one (the Dexie store: one transaction).
        if (store.getSettings !== undefined) {
          const values = await store.getSettings(names);
          expect(values).toEqual(expected);
          (values[0] as { list: number[] }).list.push(3);
          expect(await store.getSetting('keys')).toEqual(expected[0]);
          expect(await store.getSettings([])).toEqual([]);
        }
        // The reader answers each name once from the read, then from the store: a later write is seen.
        const read = await readSettings(store, names);
        await store.setSetting('flag', true);
        await store.setSetting('other', 7);
        expect(await read('keys')).toEqual(expected[0]);
        expect(await read('missing')).toBeUndefined();
        expect(await read('flag')).toBe(false);
        expect(await read('flag')).toBe(true);
        expect(await read('other')).toBe(7);
        // A name the read found missing is generated once and kept, as without the read.
        const again = await readSettings(store, ['generated']);
        expect(await initialSetting(store, 'generated', () => 'first', again)).toBe('first');
        expect(await initialSetting(store, 'generated', () => 'second')).toBe('first');
      });

      it('initializes several settings together, keeping what is stored', async () => {
        await store.setSetting('kept', { by: 'another replica' });
        await store.setSetting('profile', 'old');
        // The backend's own batch write, where it has one (the Dexie store: one transaction).
        if (store.initSettings !== undefined) {
          const values = await store.initSettings(
            [
              ['kept', { by: 'me' }],
              ['fresh', [1, 2]],
            ],
            [['profile', 'new']],
          );
          expect(values).toEqual([{ by: 'another replica' }, [1, 2]]);
          expect(await store.getSettings?.(['kept', 'fresh', 'profile'])).toEqual([
            { by: 'another replica' },
            [1, 2],
            'new',
          ]);
          expect(await store.initSettings([], [])).toEqual([]);
        }
        // The start's helper: what the read found is answered as read, the rest generated once and stored
        // together; each name is answered once from it, then from the store.
        const names = ['kept', 'made', 'label', 'other'];
        let made = 0;
        const read = await initialSettings(
          store,
          await readSettings(store, names),
          { kept: () => 'not used', made: () => ({ n: ++made }) },
          { label: 'mine' },
        );
        expect(made).toBe(1);
        expect(await read('kept')).toEqual({ by: 'another replica' });
        expect(await read('made')).toEqual({ n: 1 });
        expect(await read('label')).toBe('mine');
        expect(await read('other')).toBeUndefined();
        await store.setSetting('label', 'changed');
        expect(await read('label')).toBe('changed');
        expect(await store.getSetting('made')).toEqual({ n: 1 });
        // Nothing missing and nothing different: nothing is written.
        const unchanged = await initialSettings(
          store,
          await readSettings(store, ['made', 'label']),
          { made: () => ({ n: ++made }) },
          { label: 'changed' },
        );
        expect(made).toBe(1);
        expect(await unchanged('made')).toEqual({ n: 1 });
      });
    });

    describe('clear', () => {
      it('empties objects, history and settings and restarts the revision at 0', async () => {
        await store.create('/a/x', thing('x'));
        await store.create('/a/y', thing('y'));
        await store.compact(1);
        await store.setSetting('s', 1);
        await store.clear();
        expect(await store.currentRevision()).toBe(0);
        expect(await store.compactedRevision()).toBe(0);
        expect(await store.get('/a/x')).toBeUndefined();
        expect(await store.count('/a/')).toBe(0);
        expect(await store.changesSince(0)).toEqual([]);
        expect(await store.getSetting('s')).toBeUndefined();
        expect((await store.create('/a/x', thing('x'))).revision).toBe(1);
        expect((await store.list({ prefix: '/a/', revision: 0 })).items).toEqual([]);
      });
    });

    describe('export and import', () => {
      async function populate(target: Storage): Promise<void> {
        await target.create('/a/x', thing('x', 1));
        await target.create('/a/y', thing('y', 2));
        await target.create('/b/dotted', {
          ...thing('dotted'),
          metadata: { name: 'dotted', labels: { 'app.example.com/name': 'z~1' } },
        });
        await target.update('/a/x', thing('x', 3), 1);
        await target.delete('/a/y');
        await target.compact(2);
        await target.create('/a/z', thing('z'));
        await target.setSetting('keys', { signing: 'abc', list: [1, 2] });
        await target.setSetting('flag', true);
      }

      async function snapshot(target: Storage) {
        return {
          revision: await target.currentRevision(),
          compacted: await target.compactedRevision(),
          objects: await target.list({ prefix: '/' }),
          history: await target.changesSince(await target.compactedRevision()),
          past: await target.list({ prefix: '/a/', revision: 3 }),
          xAt2: await target.getAt('/a/x', 2),
          yAt3: await target.getAt('/a/y', 3),
          settings: [await target.getSetting('keys'), await target.getSetting('flag')],
        };
      }

      it("writes the Dexie export addon's format", async () => {
        await populate(store);
        const document = JSON.parse(await (await store.exportState()).text()) as {
          formatName: string;
          formatVersion: number;
          data: {
            tables: { name: string; rowCount: number }[];
            data: { tableName: string; inbound: boolean }[];
          };
        };
        expect(document.formatName).toBe('dexie');
        expect(document.formatVersion).toBe(1);
        // Table order is the addon's business (it follows how the database was opened).
        expect(document.data.tables.map((t) => t.name).sort()).toEqual([
          'changes',
          'meta',
          'objects',
          'settings',
        ]);
        expect(document.data.data.map((t) => [t.tableName, t.inbound]).sort()).toEqual([
          ['changes', true],
          ['meta', true],
          ['objects', true],
          ['settings', true],
        ]);
      });

      it('an import into another store reads exactly as the exported one', async () => {
        await populate(store);
        const exported = await store.exportState();
        const other = await factory();
        try {
          await other.importState(exported);
          const [imported, original] = [await snapshot(other), await snapshot(store)];
          if (conformance.settingsTakeRevisions) {
            // The sequence continues after the last change; the revisions settings took are not carried.
            expect(imported.revision).toBe(original.history.at(-1)?.revision);
            imported.revision = original.revision;
            imported.objects.revision = original.objects.revision;
          }
          expect(imported).toEqual(original);
          // Writes continue the imported revision sequence.
          const last = conformance.settingsTakeRevisions
            ? (original.history.at(-1)?.revision ?? 0)
            : await store.currentRevision();
          expect((await other.create('/a/next', thing('next'))).revision).toBe(last + 1);
          await storageError(other.changesSince(1), 'Compacted');
        } finally {
          await other.close();
        }
      });

      it('an import replaces everything that was there, and an empty export empties the store', async () => {
        const empty = await store.exportState();
        await populate(store);
        const exported = await store.exportState();
        const other = await factory();
        try {
          for (let i = 0; i < 8; i++) await other.create(`/c/${i}`, thing(`c${i}`));
          await other.setSetting('stale', 1);
          await other.importState(exported);
          expect(await other.count('/c/')).toBe(0);
          expect(await other.getSetting('stale')).toBeUndefined();
          await other.importState(empty);
          expect(await other.currentRevision()).toBe(0);
          expect(await other.list({ prefix: '/' })).toEqual({ items: [], revision: 0, more: false });
        } finally {
          await other.close();
        }
      });

      it('reports progress and tells no commit listener', async () => {
        await populate(store);
        const exported = await store.exportState();
        const other = await factory();
        try {
          const heard: ChangeRecord[] = [];
          other.onCommit((change) => heard.push(change));
          const progress: { completedRows: number; totalRows: number }[] = [];
          await other.importState(exported, { onProgress: (p) => progress.push(p) });
          expect(heard).toEqual([]);
          expect(progress.length).toBeGreaterThan(0);
          const last = progress.at(-1);
          expect(last?.totalRows).toBeGreaterThan(0);
          expect(last?.completedRows).toBe(last?.totalRows);
        } finally {
          await other.close();
        }
      });

      it('refuses what is not an export, replacing nothing', async () => {
        await populate(store);
        const before = await snapshot(store);
        const exported = JSON.parse(await (await store.exportState()).text()) as {
          data: { data: { tableName: string; rows: { revision?: number }[] }[] };
        };
        const changes = exported.data.data.find((t) => t.tableName === 'changes');
        changes?.rows.splice(1, 1);
        for (const bad of ['not json', '{"formatName":"other"}', JSON.stringify(exported)]) {
          await storageError(store.importState(new Blob([bad])), 'InvalidImport');
        }
        expect(await snapshot(store)).toEqual(before);
      });
    });

    describe('copies', () => {
      it('hands out objects callers may mutate without changing what is stored', async () => {
        const changes: ChangeRecord[] = [];
        store.onCommit((change) => changes.push(change));
        const input = thing('x', 1);
        const created = await store.create('/a/x', input);
        const pristine = structuredClone(created);
        input.spec = { n: 100 };
        created.object.spec = { n: 101 };
        (await store.get('/a/x'))!.object.spec = { n: 102 };
        (await store.list({ prefix: '/a/' })).items[0]!.object.spec = { n: 103 };
        (await store.changesSince(0))[0]!.object.spec = { n: 104 };
        await store.update('/a/x', thing('x', 2), 1);
        (await store.getAt('/a/x', 1))!.object.spec = { n: 105 };
        (await store.list({ prefix: '/a/', revision: 1 })).items[0]!.object.spec = { n: 106 };
        const error = await storageError(store.create('/a/x', thing('x')), 'KeyExists');
        error.current!.object.spec = { n: 107 };
        expect(await store.getAt('/a/x', 1)).toEqual(pristine);
        expect(changes[0]).toEqual({ revision: 1, type: 'ADDED', key: '/a/x', object: pristine.object });
        expect((await store.get('/a/x'))?.object.spec).toEqual({ n: 2 });

        const setting = { list: [1] };
        await store.setSetting('s', setting);
        setting.list.push(2);
        (await store.getSetting<{ list: number[] }>('s'))!.list.push(3);
        expect(await store.getSetting('s')).toEqual({ list: [1] });
      });
    });

    describe('randomized writes against a model rebuilt from the history', () => {
      const fixed = [1, 42];
      const fromEnv = Number(globalThis.process?.env.STORAGE_FUZZ_SEED);
      const seeds = Number.isInteger(fromEnv) ? [fromEnv] : [...fixed, Math.floor(Math.random() * 2 ** 31)];
      for (const seed of seeds) {
        it(`seed ${seed}`, async () => {
          try {
            await fuzz(store, seed);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            throw new Error(`storage fuzz failed; rerun with STORAGE_FUZZ_SEED=${seed}\n${message}`, {
              cause: error,
            });
          }
        });
      }
    });
  });
}

type State = Map<string, StoredObject>;
type Op = 'put' | 'delete';

/** Random writes, then every past revision read back and compared with the model. */
async function fuzz(store: Storage, seed: number): Promise<void> {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const keys = ['/p/a', '/p/b', '/p/c', '/p/d', '/p/e', '/p/f', '/p/g', '/p/h', '/q/a', '/q/b', '/pa'];
  // What the test expects after each revision, from the results of its own writes.
  const states: State[] = [new Map()];
  let compacted = 0;

  for (let step = 0; step < 60; step++) {
    // A few writes at a time, on distinct keys, so their outcomes do not depend on their order.
    const batch = [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(keys)))];
    const before = states.at(-1) as State;
    const writes = batch.map((key): [Op, Promise<StoredObject>] => {
      const stored = before.get(key);
      const roll = random();
      const object = thing(key.slice(1).replace('/', '-'), Math.floor(random() * 10));
      if (!stored)
        return roll < 0.85 ? ['put', store.create(key, object)] : ['put', store.update(key, object, 1)];
      if (roll < 0.1) return ['put', store.create(key, object)];
      const expected = roll < 0.2 ? stored.revision + 1 : stored.revision;
      if (roll < 0.65) return ['put', store.update(key, object, expected)];
      return ['delete', roll < 0.8 ? store.delete(key, expected) : store.delete(key)];
    });
    const outcomes = await Promise.allSettled(writes.map(([, write]) => write));
    const done: Array<{ op: Op; result: StoredObject }> = [];
    outcomes.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') done.push({ op: writes[i]?.[0] ?? 'put', result: outcome.value });
      else expect(outcome.reason).toBeInstanceOf(StorageError);
    });
    done.sort((x, y) => x.result.revision - y.result.revision);
    for (const { op, result } of done) {
      expect(result.revision).toBe(states.length);
      const state = new Map(states.at(-1));
      if (op === 'delete') state.delete(result.key);
      else state.set(result.key, result);
      states.push(state);
    }
    if (random() < 0.05) {
      // Keep most of the history readable: compact to somewhere in its older half.
      compacted += Math.floor((random() * (states.length - 1 - compacted)) / 2);
      await store.compact(compacted);
    }
  }

  const current = states.length - 1;
  expect(await store.currentRevision()).toBe(current);
  expect(await store.compactedRevision()).toBe(compacted);
  if (compacted > 0) await storageError(store.list({ prefix: '/p/', revision: compacted - 1 }), 'Compacted');

  // The model rebuilt from the change history must agree with the results of the writes.
  const history = await store.changesSince(compacted);
  expect(history.map((c) => c.revision)).toEqual(range(compacted + 1, current));
  const replayed = new Map(states[compacted]);
  for (const change of history) {
    const previous = replayed.get(change.key);
    expect(change.previous, `previous of ${change.revision}`).toEqual(previous?.object);
    expect(change.object.metadata?.resourceVersion).toBe(String(change.revision));
    if (change.type === 'ADDED') expect(previous).toBeUndefined();
    if (change.type === 'DELETED') {
      expect(change.object).toEqual(stamped(previous?.object ?? {}, change.revision));
      replayed.delete(change.key);
    } else {
      replayed.set(change.key, { key: change.key, revision: change.revision, object: change.object });
    }
    expect(sorted(replayed), `state at ${change.revision}`).toEqual(sorted(states[change.revision] as State));
  }

  const even = (object: KubeObject) => (spec(object) ?? 0) % 2 === 0;
  for (let r = compacted; r <= current; r++) {
    const state = states[r] as State;
    const want = sorted(state).filter((s) => s.key.startsWith('/p/'));
    const listed = await store.list({ prefix: '/p/', revision: r });
    expect(listed.items, `list at ${r}`).toEqual(want);

    const limit = 1 + Math.floor(random() * 3);
    const wantEven = want.filter((s) => even(s.object));
    const paged: StoredObject[] = [];
    let after: string | undefined;
    for (let page = 0; page < 20; page++) {
      const got = await store.list({
        prefix: '/p/',
        revision: r,
        limit,
        after,
        predicate: even,
        countRemaining: true,
      });
      paged.push(...got.items);
      expect(got.remaining, `remaining at ${r}`).toBe(wantEven.length - paged.length);
      expect(got.more).toBe(paged.length < wantEven.length);
      if (!got.more) break;
      after = got.items.at(-1)?.key;
    }
    expect(paged, `paged list at ${r}`).toEqual(wantEven);
    const unfiltered = await store.list({ prefix: '/p/', revision: r, limit, countRemaining: true });
    expect([unfiltered.items, unfiltered.remaining]).toEqual([
      want.slice(0, limit),
      Math.max(want.length - limit, 0),
    ]);

    const key = pick(keys);
    expect(await store.getAt(key, r), `${key} at ${r}`).toEqual(state.get(key));
  }
}

function sorted(state: State): StoredObject[] {
  return [...state.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function storageError(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe(code);
    return error as StorageError;
  }
  throw new Error(`expected StorageError(${code})`);
}

function thing(name: string, n?: number): KubeObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name }, ...(n === undefined ? {} : { spec: { n } }) };
}

function spec(object: KubeObject): number | undefined {
  return (object.spec as { n?: number } | undefined)?.n;
}

function stamped(object: KubeObject, revision: number): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
}

function pad(i: number): string {
  return String(i).padStart(4, '0');
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(to - from + 1, 0) }, (_, i) => from + i);
}

/** A small seeded generator, so that a failing run can be repeated from its seed. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
