/**
 * The watch cache's window over HTTP on the Node host (dexie store), as the
 * real v1.27 cacher serves watches: the caches start once the start-up
 * objects exist, so on a fresh start a watch from rv 1 is 410; a restart
 * over existing state and a new CRD start their caches at once, so older
 * starts are 410 `too old resource version: <rv> (<start>)`; a compacted revision still inside the window is served, while
 * Exact lists (read from the store) are 410 only after compaction; a window
 * that overflows drops its oldest events. Also two watch details: Table
 * watches carry columnDefinitions on the first event only, and a streaming
 * list's initial-events-end bookmark is at or after the requested version.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { openWatch, type CollectedEvent } from './support/watch';
import { crdBody, createEstablished } from './support/crd';

const database = `watch-cache-window-${process.pid}`;
const NAMESPACES = '/api/v1/namespaces';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const GROUP = 'window.example.com';
const WIDGETS = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const tooOld = /^too old resource version: (\d+) \((\d+)\)$/;

// The server's clock runs `offset` ms ahead of the real one: the overflow case ages the window's events.
let offset = 0;
let host: TestHost;
/** Revisions seen on the first host, for the restart cases. */
let lastRevisionBeforeRestart = 0;

async function createCm(name: string): Promise<number> {
  const r = await host.request('POST', CONFIGMAPS, { body: { metadata: { name } } });
  expect(r.status).toBe(201);
  return Number(r.body.metadata.resourceVersion);
}

async function createWidget(name: string): Promise<number> {
  const r = await host.request('POST', WIDGETS, {
    body: { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name } },
  });
  expect(r.status).toBe(201);
  return Number(r.body.metadata.resourceVersion);
}

/** The first event of a watch from `rv` (the ERROR of a 410, or the first replayed change). */
async function firstEvent(path: string, rv: number): Promise<CollectedEvent> {
  const sep = path.includes('?') ? '&' : '?';
  const w = await openWatch(host.url, `${path}${sep}watch=1&resourceVersion=${rv}`);
  expect(w.status).toBe(200);
  const [event] = await w.waitFor(1);
  w.abort();
  return event as CollectedEvent;
}

function expectTooOld(event: CollectedEvent, rv: number): number {
  expect(event).toMatchObject({
    type: 'ERROR',
    object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' },
  });
  const m = tooOld.exec(event.object.message as string);
  expect(m, event.object.message as string).not.toBeNull();
  expect(Number(m?.[1])).toBe(rv);
  return Number(m?.[2]);
}

describe('watch cache window (Node host, dexie store)', () => {
  beforeAll(async () => {
    host = await startTestHost({
      storage: 'dexie',
      dexieDatabase: database,
      featureGates: { WatchList: true },
      now: () => new Date(Date.now() + offset),
    });
  });

  afterAll(async () => {
    await host?.close();
  });

  it('on a fresh store the caches start after the start-up objects: a watch from rv 1 is 410 with the start', async () => {
    const listed = await host.request('GET', NAMESPACES);
    const revisions = (listed.body.items as { metadata: { resourceVersion: string } }[]).map((n) =>
      Number(n.metadata.resourceVersion),
    );
    const start = expectTooOld(await firstEvent(NAMESPACES, 1), 1);
    // The start-up namespaces were written before the caches started.
    expect(start).toBeGreaterThanOrEqual(Math.max(...revisions));
  });

  it.each([
    ['a watch from a compacted revision inside the window is served from the cache', 'watch'],
    ['an Exact list is read from the store: 200 before compaction, 410 after it', 'exact'],
  ])('%s', async (_title, kind) => {
    const rv = await createCm(`compacted-${kind}`);
    await createCm(`after-${kind}`);
    const exact = `${CONFIGMAPS}?resourceVersion=${rv}&resourceVersionMatch=Exact`;
    if (kind === 'exact') expect((await host.request('GET', exact)).status).toBe(200);
    expect((await host.request('POST', '/sandbox/v1/compact')).status).toBe(200);
    if (kind === 'watch') {
      const event = await firstEvent(CONFIGMAPS, rv);
      expect(event.type).toBe('ADDED');
      expect(event.object.metadata.name).toBe('after-watch');
    } else {
      const r = await host.request('GET', exact);
      expect(r.status).toBe(410);
      expect(r.body).toMatchObject({
        kind: 'Status',
        code: 410,
        reason: 'Expired',
        message: 'The resourceVersion for the provided list is too old.',
      });
    }
  });

  it('a new CRD starts its cache when Established: a watch from before it is 410 at once', async () => {
    const before = await createCm('before-crd');
    const crd = await createEstablished(
      host,
      crdBody({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, { group: GROUP }),
    );
    const crdRv = Number((crd.metadata as { resourceVersion: string }).resourceVersion);
    const start = expectTooOld(await firstEvent(WIDGETS, before), before);
    expect(start).toBeGreaterThan(before);
    expect(start).toBeLessThanOrEqual(crdRv);
    // From its start on, the cache serves.
    const w = await openWatch(host.url, `${WIDGETS}?watch=1&resourceVersion=${start}`);
    await createWidget('first');
    const [event] = await w.waitFor(1);
    w.abort();
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'first' } } });
  });

  it('a window that overflows with events older than 75 s drops its oldest: a watch from before them is 410', async () => {
    // The widgets window holds one event ('first'); fill it to its initial capacity of 100.
    const rvs: number[] = [];
    for (let i = 0; i < 99; i++) rvs.push(await createWidget(`fill-${i}`));
    const start = expectTooOld(await firstEvent(WIDGETS, 1), 1);
    // Full, and its oldest event 76 s old: the next event evicts the oldest instead of doubling the window.
    offset += 76_000;
    await createWidget('overflow');
    const oldest = (rvs[0] ?? 0) - 1;
    expect(expectTooOld(await firstEvent(WIDGETS, start), start)).toBe(oldest);
    const served = await firstEvent(WIDGETS, oldest);
    expect(served).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'fill-0' } } });
  });

  it('a Table watch sends columnDefinitions with its first event only, initial events included', async () => {
    await createCm('table-a');
    const w = await openWatch(host.url, `${CONFIGMAPS}?watch=1&resourceVersion=0`, {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io' },
    });
    const listed = (await host.request('GET', CONFIGMAPS)).body.items.length as number;
    await w.waitFor(listed);
    await createCm('table-b');
    const events = await w.waitFor(listed + 1);
    w.abort();
    expect(events.every((e) => e.object.kind === 'Table')).toBe(true);
    expect(events[0]?.object.columnDefinitions.map((c: { name: string }) => c.name)).toContain('Name');
    for (const e of events.slice(1)) expect(e.object.columnDefinitions).toBeNull();
    expect(events.at(-1)?.object.rows[0].cells[0]).toBe('table-b');
  });

  it.each([
    ['the current revision', 0],
    ['a revision the store reaches while the watch waits', 1],
  ])('a streaming list at %s bookmarks the end of its initial events at or after it', async (_t, ahead) => {
    const current = await createCm(`streaming-${ahead}`);
    const requested = current + ahead;
    const w = await openWatch(
      host.url,
      `${CONFIGMAPS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${requested}`,
    );
    if (ahead > 0) await createCm(`streaming-${ahead}-next`);
    const deadline = Date.now() + 5000;
    while (!w.events.some((e) => e.type === 'BOOKMARK') && Date.now() < deadline)
      await w.waitFor(w.events.length + 1);
    w.abort();
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
    expect(bookmark?.object.metadata.annotations).toEqual({ 'orch.io/initial-events-end': 'true' });
    expect(Number(bookmark?.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(requested);
    const added = w.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
    expect(added).toContain(`streaming-${ahead}`);
    const listed = await host.request('GET', CONFIGMAPS);
    lastRevisionBeforeRestart = Number(listed.body.metadata.resourceVersion);
  });

  it('the sandbox can start the watch caches again, as a restart does: earlier starts are 410', async () => {
    const rv = await createCm('before-cache-restart');
    const r = await host.request('POST', '/sandbox/v1/restart-watch-cache');
    expect(r.status).toBe(200);
    const start = Number(r.body.watchCacheStart);
    expect(start).toBeGreaterThanOrEqual(rv);
    expect(expectTooOld(await firstEvent(CONFIGMAPS, rv - 1), rv - 1)).toBe(start);
    expect((await host.request('GET', '/sandbox/v1/restart-watch-cache')).status).toBe(405);
  });

  it('after a restart over the existing state, a watch from before the restart is 410 with the cache start', async () => {
    const revisionBefore = lastRevisionBeforeRestart;
    await host.close();
    offset = 0;
    host = await startTestHost({ storage: 'dexie', dexieDatabase: database });
    const start = expectTooOld(await firstEvent(NAMESPACES, 1), 1);
    expect(start).toBeGreaterThanOrEqual(revisionBefore);
    const now = Number((await host.request('GET', CONFIGMAPS)).body.metadata.resourceVersion);
    expect(start).toBeLessThanOrEqual(now);
    // The restarted custom resource cache starts there too.
    expect(expectTooOld(await firstEvent(WIDGETS, revisionBefore - 1), revisionBefore - 1)).toBe(start);
    // Exact lists read the store, whose history survived the restart.
    const exact = await host.request(
      'GET',
      `${CONFIGMAPS}?resourceVersion=${revisionBefore}&resourceVersionMatch=Exact`,
    );
    expect(exact.status).toBe(200);
    // From the start on, the cache serves.
    const w = await openWatch(host.url, `${CONFIGMAPS}?watch=1&resourceVersion=${start}`);
    await createCm('after-restart');
    const events = await w.waitFor(1);
    w.abort();
    expect(events.find((e) => e.type === 'ADDED')?.object.metadata.name).toBe('after-restart');
  });
});
