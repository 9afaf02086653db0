/**
 * Watch over real HTTP: the cells of the spec's watch table (unset, 0, a
 * specific version), events for create/update/delete, selector
 * transitions, bookmarks, streaming lists behind the WatchList gate,
 * timeoutSeconds, a compacted start served from the watch cache, and release of an aborted
 * watch on the server at once.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

let host: TestHost;
let gated: TestHost;
beforeAll(async () => {
  host = await startTestHost({ watchBookmarkIntervalMs: 200 });
  gated = await startTestHost({ featureGates: { WatchList: true } });
});
afterAll(async () => {
  await host.close();
  await gated.close();
});

const cms = '/api/v1/namespaces/default/configmaps';

async function createCm(h: TestHost, name: string, labels: Record<string, string> = {}): Promise<string> {
  const r = await h.request('POST', cms, { body: { metadata: { name, labels }, data: { v: '1' } } });
  expect(r.status).toBe(201);
  return r.body.metadata.resourceVersion as string;
}

async function watchers(h: TestHost): Promise<number> {
  const m = await h.request('GET', '/metrics');
  const line = m.text
    .split('\n')
    .find(
      (l) =>
        l.startsWith('apiserver_longrunning_requests{') &&
        l.includes('resource="configmaps"') &&
        l.includes('scope="namespace"') &&
        l.includes('verb="WATCH"'),
    );
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe('watch', () => {
  it('without resourceVersion: synthetic ADDED for existing objects, then later changes (Get State and Start at Most Recent)', async () => {
    await createCm(host, 'w-existing');
    const w = await openWatch(host.url, `${cms}?watch=1`);
    expect(w.status).toBe(200);
    expect(w.headers.get('content-type')).toBe('application/json');
    await w.waitFor(1);
    expect(w.events.filter((e) => e.object.metadata.name === 'w-existing')[0]?.type).toBe('ADDED');
    const before = w.events.length;
    await createCm(host, 'w-later');
    await host.request('PATCH', `${cms}/w-later`, {
      body: { data: { v: '2' } },
      contentType: 'application/merge-patch+json',
    });
    await host.request('DELETE', `${cms}/w-later`);
    const events = (await w.waitFor(before + 3)).slice(before);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events[0]?.object.kind).toBe('ConfigMap');
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
    w.abort();
  });

  it('resourceVersion=0 also starts with the current state (Get State and Start at Any)', async () => {
    await createCm(host, 'w-zero');
    const w = await openWatch(host.url, `${cms}?watch=true&resourceVersion=0`);
    await w.waitFor(1);
    expect(w.events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'w-zero')).toBe(true);
    w.abort();
  });

  it('a specific resourceVersion replays exactly the changes after it, with no synthetic events (Start at Exact)', async () => {
    const rv = await createCm(host, 'w-exact-a');
    await createCm(host, 'w-exact-b');
    await host.request('DELETE', `${cms}/w-exact-a`);
    const w = await openWatch(host.url, `${cms}?watch=1&resourceVersion=${rv}`);
    const events = await w.waitFor(2);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'w-exact-b'],
      ['DELETED', 'w-exact-a'],
    ]);
    w.abort();
  });

  it('the legacy /watch/ path and ?watch with no value are watches', async () => {
    const a = await openWatch(host.url, `/api/v1/watch/namespaces/default/configmaps?resourceVersion=0`);
    expect(a.status).toBe(200);
    await a.waitFor(1);
    a.abort();
    const b = await openWatch(host.url, `${cms}?watch`);
    await b.waitFor(1);
    b.abort();
  });

  it('with a label selector, objects that start or stop matching arrive as ADDED and DELETED', async () => {
    const rv = await createCm(host, 'w-sel', { tier: 'back' });
    const w = await openWatch(host.url, `${cms}?watch=1&resourceVersion=${rv}&labelSelector=tier%3Dfront`);
    await host.request('PATCH', `${cms}/w-sel`, {
      body: { metadata: { labels: { tier: 'front' } } },
      contentType: 'application/merge-patch+json',
    });
    await host.request('PATCH', `${cms}/w-sel`, {
      body: { data: { v: '9' } },
      contentType: 'application/merge-patch+json',
    });
    await host.request('PATCH', `${cms}/w-sel`, {
      body: { metadata: { labels: { tier: 'back' } } },
      contentType: 'application/merge-patch+json',
    });
    const events = await w.waitFor(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events[2]?.object.metadata.labels.tier).toBe('front');
    w.abort();
  });

  it('a field selector on metadata.name watches one object', async () => {
    const rv = await createCm(host, 'w-one');
    await createCm(host, 'w-other');
    const w = await openWatch(
      host.url,
      `${cms}?watch=1&resourceVersion=${Number(rv) - 1}&fieldSelector=metadata.name%3Dw-one`,
    );
    await w.waitFor(1);
    expect(w.events.every((e) => e.object.metadata.name === 'w-one')).toBe(true);
    w.abort();
  });

  it('bookmarks carry only metadata.resourceVersion (and the zero values Go writes), in an object of the requested kind', async () => {
    const w = await openWatch(host.url, `${cms}?watch=1&allowWatchBookmarks=true&resourceVersion=0`);
    const deadline = Date.now() + 5000;
    while (!w.events.some((e) => e.type === 'BOOKMARK') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
    // An empty ConfigMap encoded by Go: ObjectMeta's creationTimestamp is a struct, written as null.
    expect(bookmark?.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: expect.stringMatching(/^\d+$/), creationTimestamp: null },
    });
    w.abort();
  });

  it('timeoutSeconds ends the stream', async () => {
    const w = await openWatch(host.url, `${cms}?watch=1&timeoutSeconds=1`);
    await w.ended;
    expect(w.status).toBe(200);
  });

  it('aborting a watch releases it on the server at once', async () => {
    const before = await watchers(host);
    const w = await openWatch(host.url, `${cms}?watch=1&resourceVersion=0`);
    await w.waitFor(1);
    expect(await watchers(host)).toBe(before + 1);
    w.abort();
    const deadline = Date.now() + 2000;
    while ((await watchers(host)) !== before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(await watchers(host)).toBe(before);
  });

  it('a start compacted in the store but inside the watch cache window is served from the cache', async () => {
    // The real server serves watches from its cacher, not from etcd: compaction alone never makes them 410
    // (test/watch-cache-window.test.ts covers the 410 of a start older than the window).
    const rv = await createCm(host, 'w-old');
    await createCm(host, 'w-newer');
    await host.api.compact();
    const w = await openWatch(host.url, `${cms}?watch=1&resourceVersion=${rv}`);
    expect(w.status).toBe(200);
    const [event] = await w.waitFor(1);
    w.abort();
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'w-newer' } } });
  });

  it('a watch can ask for Tables (one row per event) or for metadata only, as kubectl get -w and metadata informers do', async () => {
    const rv = await createCm(host, 'w-table');
    const table = await fetchWithCA(
      `${host.url}${cms}?watch=1&resourceVersion=${Number(rv) - 1}&fieldSelector=metadata.name%3Dw-table`,
      {
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io, application/json' },
      },
    );
    expect(table.status).toBe(200);
    const reader = table.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    const event = JSON.parse(text.slice(0, text.indexOf('\n'))) as {
      type: string;
      object: { kind: string; rows: { cells: unknown[] }[]; columnDefinitions: { name: string }[] };
    };
    expect(event.type).toBe('ADDED');
    expect(event.object.kind).toBe('Table');
    expect(event.object.rows).toHaveLength(1);
    expect(event.object.rows[0]?.cells[0]).toBe('w-table');
    expect(event.object.columnDefinitions.map((c) => c.name)).toContain('Name');

    const partial = await fetchWithCA(
      `${host.url}${cms}?watch=1&resourceVersion=${Number(rv) - 1}&fieldSelector=metadata.name%3Dw-table`,
      {
        headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1' },
      },
    );
    const r2 = partial.body!.pipeThrough(new TextDecoderStream()).getReader();
    let t2 = '';
    while (!t2.includes('\n')) t2 += (await r2.read()).value ?? '';
    await r2.cancel();
    const pe = JSON.parse(t2.slice(0, t2.indexOf('\n'))) as {
      object: { kind: string; metadata: { name: string }; data?: unknown };
    };
    expect(pe.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.orch.io/v1',
      metadata: { name: 'w-table' },
    });
    expect(pe.object.data).toBeUndefined();
  });

  it('resourceVersionMatch and sendInitialEvents are forbidden for watch without the WatchList gate', async () => {
    const r = await host.request('GET', `${cms}?watch=1&resourceVersion=0&resourceVersionMatch=NotOlderThan`);
    expect(r.status).toBe(422);
    expect(r.body.reason).toBe('Invalid');
    const s = await host.request(
      'GET',
      `${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    expect(s.status).toBe(422);
  });
});

describe('streaming lists (WatchList gate)', () => {
  it('sends the state as ADDED events, one BOOKMARK marking their end, then the live stream', async () => {
    // The root CA ConfigMap the publisher keeps in the namespace is part of the state: once it is there, skip it.
    for (let i = 0; i < 500; i++) {
      if ((await gated.request('GET', `${cms}/orch-root-ca.crt`)).status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ours = <E extends { object: { metadata: { name?: string } } }>(events: E[]): E[] =>
      events.filter((e) => e.object.metadata.name !== 'orch-root-ca.crt');
    await createCm(gated, 'sl-a');
    await createCm(gated, 'sl-b');
    const w = await openWatch(
      gated.url,
      `${cms}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    const initial = ours(await w.waitFor(4));
    expect(initial.slice(0, 2).map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'sl-a'],
      ['ADDED', 'sl-b'],
    ]);
    expect(initial[2]?.type).toBe('BOOKMARK');
    expect(initial[2]?.object.metadata.annotations).toEqual({ 'orch.io/initial-events-end': 'true' });
    await createCm(gated, 'sl-c');
    const live = ours(await w.waitFor(5));
    expect(live[3]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'sl-c' } } });
    w.abort();
  });

  it('requires resourceVersionMatch=NotOlderThan with sendInitialEvents', async () => {
    const r = await gated.request('GET', `${cms}?watch=1&sendInitialEvents=true`);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain(
      'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });
});
