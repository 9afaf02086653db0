/**
 * The fan-out of commits to watches: every watch gets every change, in
 * commit order; a short fan-out happens inside the commit; a long one lets
 * a task scheduled at the commit run before it reaches the last watch; a
 * watch removed meanwhile gets nothing more, and one added while a change
 * is being delivered does not get that change (its start read holds it);
 * changes committed while a fan-out paused reach each watch together;
 * in-process watches may wait for a pause in the clients' requests.
 */

import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../storage/memory/memory-storage';
import type { ChangeRecord } from '../../storage/types';
import { WatchHub } from './watch-hub';
import { nextTurn } from '../../machinery/cooperative';

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } });
const key = (name: string) => `/core/configmaps/ns/${name}`;

/** A turn that runs long after every `n` deliveries, as 1,000 socket writes would: no wall clock, no load. */
function longEvery(n: number): () => boolean {
  let calls = 0;
  return () => ++calls % n === 0;
}

describe('WatchHub', () => {
  it('delivers every change to every watch, in commit order, and the first watches inside the commit', async () => {
    const storage = createMemoryStorage();
    // A turn that never runs long: the machine's load cannot move a delivery to the next turn.
    const hub = new WatchHub(storage, () => false);
    const seen: string[][] = [[], [], []];
    seen.forEach((list, i) => hub.subscribe((c) => list.push(`${i}:${c.revision}`)));
    await storage.create(key('a'), cm('a'));
    // Delivered within the commit: nothing else ran in between.
    expect(seen.map((l) => l.length)).toEqual([1, 1, 1]);
    await storage.create(key('b'), cm('b'));
    await storage.delete(key('a'));
    expect(seen).toEqual([
      ['0:1', '0:2', '0:3'],
      ['1:1', '1:2', '1:3'],
      ['2:1', '2:2', '2:3'],
    ]);
    hub.stop();
  });

  it('a long fan-out lets other tasks run before it reaches the last watch, and keeps the order', async () => {
    const storage = createMemoryStorage();
    const hub = new WatchHub(storage, longEvery(10));
    const order: string[] = [];
    let lastWatchGot = -1;
    for (let i = 0; i < 40; i++)
      hub.subscribe((c: ChangeRecord) => {
        if (i === 39) lastWatchGot = c.revision;
      });
    hub.subscribe((c) => order.push(`late watch ${c.revision}`));
    const other = new Promise<void>((resolve) =>
      setTimeout(() => {
        order.push(`task (last watch had ${lastWatchGot})`);
        resolve();
      }, 0),
    );
    await storage.create(key('a'), cm('a'));
    await storage.create(key('b'), cm('b'));
    await other;
    // The task ran while the first change was still on its way to the last watches.
    expect(order[0]).toBe('task (last watch had -1)');
    while (!order.includes('late watch 2')) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(order.filter((o) => o.startsWith('late'))).toEqual(['late watch 1', 'late watch 2']);
    expect(lastWatchGot).toBe(2);
    hub.stop();
  });

  it('a watch removed during a long fan-out gets nothing more; one added during it starts at the next change', async () => {
    const storage = createMemoryStorage();
    const hub = new WatchHub(storage, longEvery(10));
    const removed: number[] = [];
    const added: number[] = [];
    let unsubscribe: () => void = () => undefined;
    let firstDone = 0;
    for (let i = 0; i < 30; i++) hub.subscribe(() => void (i === 29 && firstDone++));
    unsubscribe = hub.subscribe((c) => removed.push(c.revision));
    await storage.create(key('a'), cm('a'));
    // The fan-out of change 1 pauses before reaching the last watch: remove it, add another meanwhile.
    unsubscribe();
    hub.subscribe((c) => added.push(c.revision));
    // Change 1 reaches the watches after the removed one, then change 2 comes.
    while (firstDone === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await storage.create(key('b'), cm('b'));
    while (!added.includes(2)) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(removed).toEqual([]);
    expect(added).toEqual([2]);
    hub.stop();
  });

  it('changes committed while a fan-out paused reach each watch together, in commit order', async () => {
    const storage = createMemoryStorage();
    let checks = 0;
    // The turn runs long after every 5 watches: the first change pauses half-way through the 10 watches.
    const hub = new WatchHub(storage, () => ++checks % 5 === 0);
    const got: [revision: number, checks: number][][] = Array.from({ length: 10 }, () => []);
    for (const list of got) hub.subscribe((c) => list.push([c.revision, checks]));
    await storage.create(key('a'), cm('a'));
    await storage.create(key('b'), cm('b'));
    await storage.create(key('c'), cm('c'));
    while ((got[9]?.length ?? 0) < 3) await new Promise((resolve) => setTimeout(resolve, 1));
    for (const list of got) {
      expect(list.map(([revision]) => revision)).toEqual([1, 2, 3]);
      // Changes 2 and 3, committed during the pause, came to the watch with no check (no pause) between them.
      expect(list[1]?.[1]).toBe(list[2]?.[1]);
    }
    // One check per watch for change 1, and one for changes 2 and 3 together (one per change would be 30).
    expect(checks).toBe(20);
    hub.stop();
  });
  it('after the answer: a writer is answered before its watches get the change, all of them in commit order', async () => {
    const storage = createMemoryStorage();
    const hub = new WatchHub(storage, () => false, true);
    const seen: string[] = [];
    hub.subscribe((c) => seen.push(`${c.type}:${c.revision}`));
    await storage.create(key('a'), cm('a'));
    // The writer's continuation ran first: nothing was delivered inside the commit.
    expect(seen).toEqual([]);
    await storage.create(key('b'), cm('b'));
    await storage.delete(key('a'));
    await nextTurn();
    expect(seen).toEqual(['ADDED:1', 'ADDED:2', 'DELETED:3']);
    await storage.update(key('b'), cm('b'), 2);
    await nextTurn();
    expect(seen).toEqual(['ADDED:1', 'ADDED:2', 'DELETED:3', 'MODIFIED:4']);
    hub.stop();
  });
  it('behind the clients: in-process watches get their changes when the hub is told to, in order, the others at once', async () => {
    const storage = createMemoryStorage();
    // The pause in the clients' requests, made by hand: a delivery waits in `held` until the test runs it.
    const held: (() => void)[] = [];
    const hub = new WatchHub(
      storage,
      () => false,
      true,
      (run) => held.push(run),
    );
    const client: number[] = [];
    const informer: string[] = [];
    const informerElsewhere: number[] = [];
    hub.subscribe((c) => client.push(c.revision), { prefix: '/core/configmaps/' });
    hub.subscribe((c) => informer.push(`${c.type}:${c.revision}`), {
      prefix: '/core/configmaps/',
      behindClients: true,
    });
    hub.subscribe((c) => informerElsewhere.push(c.revision), {
      prefix: '/core/secrets/',
      behindClients: true,
    });
    await storage.create(key('a'), cm('a'));
    await storage.create(key('b'), cm('b'));
    await nextTurn();
    // The client's watch has both; the informer none yet, and the hub says so.
    expect(client).toEqual([1, 2]);
    expect(informer).toEqual([]);
    expect(hub.deliveredThrough).toBe(0);
    // One delivery was asked for: the second commit joined the first's.
    expect(held).toHaveLength(1);
    await storage.delete(key('a'));
    held.shift()?.();
    expect(informer).toEqual(['ADDED:1', 'ADDED:2', 'DELETED:3']);
    expect(informerElsewhere).toEqual([]);
    await nextTurn();
    expect(client).toEqual([1, 2, 3]);
    expect(hub.deliveredThrough).toBe(3);
    // The next commit asks for another pause; a watch stopped meanwhile gets nothing more.
    const stop = hub.subscribe((c) => informerElsewhere.push(-c.revision), {
      prefix: '/',
      behindClients: true,
    });
    await storage.update(key('b'), cm('b'), 2);
    stop();
    expect(held).toHaveLength(1);
    held.shift()?.();
    expect(informer).toEqual(['ADDED:1', 'ADDED:2', 'DELETED:3', 'MODIFIED:4']);
    expect(informerElsewhere).toEqual([]);
    hub.stop();
  });
  it('a watch with an interest gets only the changes under its prefix; every watch has seen what was handed out', async () => {
    const storage = createMemoryStorage();
    let checks = 0;
    const hub = new WatchHub(storage, () => {
      checks++;
      return false;
    });
    const got: string[] = [];
    const inResource: number[] = [];
    const all: number[] = [];
    const unprefixed: number[] = [];
    hub.subscribe((c) => got.push(`${c.type}:${c.revision}`), { prefix: '/core/configmaps/ns/' });
    hub.subscribe((c) => inResource.push(c.revision), { prefix: '/core/configmaps/' });
    hub.subscribe((c) => all.push(c.revision));
    // Not a path ending at a `/`: offered every change, filtered by its prefix all the same.
    hub.subscribe((c) => unprefixed.push(c.revision), { prefix: '/core/configmaps/ns/a' });
    await storage.create(key('a'), cm('a'));
    expect(hub.deliveredThrough).toBe(1);
    await storage.create('/core/secrets/ns/s', { metadata: { name: 's', namespace: 'ns' } });
    expect(hub.deliveredThrough).toBe(2);
    await storage.create('/core/configmaps/other/b', cm('b'));
    await storage.delete(key('a'));
    expect(got).toEqual(['ADDED:1', 'DELETED:4']);
    expect(inResource).toEqual([1, 3, 4]);
    expect(all).toEqual([1, 2, 3, 4]);
    expect(unprefixed).toEqual([1, 4]);
    expect(hub.deliveredThrough).toBe(4);
    // The clock is read after a watch got a change: 4 + 3 + 2 + 2, none for the others.
    expect(checks).toBe(11);
    hub.stop();
  });
});
