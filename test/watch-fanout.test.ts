/**
 * Many watchers of one collection over real HTTPS: each event is encoded
 * once and shared (see `http/watch/shared-frames.ts`) and written to every
 * watcher's socket at once, so these scenarios check what sharing and
 * immediate writes must not change: 100 watchers each receive every event
 * exactly once and in resourceVersion order; watchers asking for a Table or
 * for metadata only beside plain watchers still get their own form; and a
 * watcher that reads nothing holds up neither the writes nor the others.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { openWatch, type CollectedEvent, type WatchHandle } from './support/watch';
import { frameEncodings } from '../src/http/watch/shared-frames';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
  await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'fan' } } });
});
afterAll(async () => {
  await host.close();
});

const cms = '/api/v1/namespaces/fan/configmaps';

async function currentRevision(): Promise<string> {
  const r = await host.request('GET', cms);
  return r.body.metadata.resourceVersion as string;
}

/** Creates, updates and deletes `names` one at a time: three events each, in this order. */
async function churn(names: string[], data: Record<string, string> = {}): Promise<void> {
  for (const name of names) {
    const r = await host.request('POST', cms, { body: { metadata: { name }, data: { v: '1', ...data } } });
    expect(r.status).toBe(201);
  }
  for (const name of names) {
    const r = await host.request('PATCH', `${cms}/${name}`, {
      body: { data: { v: '2' } },
      contentType: 'application/merge-patch+json',
    });
    expect(r.status).toBe(200);
  }
  for (const name of names) expect((await host.request('DELETE', `${cms}/${name}`)).status).toBe(200);
}

const summary = (e: CollectedEvent) => `${e.type} ${e.object.metadata.name as string}`;

describe('watch fan-out', () => {
  it('100 watchers each receive every event exactly once, in resourceVersion order', async () => {
    const rv = await currentRevision();
    const watches: WatchHandle[] = await Promise.all(
      Array.from({ length: 100 }, () => openWatch(host.url, `${cms}?watch=1&resourceVersion=${rv}`)),
    );
    const names = Array.from({ length: 20 }, (_, i) => `fan-${String(i).padStart(2, '0')}`);
    const types = ['ADDED', 'MODIFIED', 'DELETED'];
    const encodedBefore = types.map((t) => frameEncodings(t, 'fan'));
    await churn(names);
    const expected = [
      ...names.map((n) => `ADDED ${n}`),
      ...names.map((n) => `MODIFIED ${n}`),
      ...names.map((n) => `DELETED ${n}`),
    ];
    for (const w of watches) {
      const events = await w.waitFor(expected.length, 30_000);
      w.abort();
      expect(events.map(summary)).toEqual(expected);
      const revisions = events.map((e) => Number(e.object.metadata.resourceVersion));
      expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      expect(new Set(revisions).size).toBe(revisions.length);
    }
    // Each event was encoded once for all 100 watchers (one content type), not once per watcher.
    expect(types.map((t, i) => frameEncodings(t, 'fan') - (encodedBefore[i] ?? 0))).toEqual([20, 20, 20]);
  });

  it('a Table watcher and a metadata-only watcher beside plain ones each get their own form of the same events', async () => {
    const rv = await currentRevision();
    const path = `${cms}?watch=1&resourceVersion=${rv}`;
    const [plain, table, partial, plain2] = await Promise.all([
      openWatch(host.url, path),
      openWatch(host.url, path, {
        headers: { accept: 'application/json;as=Table;v=v1;g=meta.orch.io, application/json' },
      }),
      openWatch(host.url, path, {
        headers: { accept: 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1' },
      }),
      openWatch(host.url, path),
    ]);
    await churn(['form-a', 'form-b']);
    const all = [plain, table, partial, plain2].map((w) => w!);
    const got = await Promise.all(all.map((w) => w.waitFor(6, 30_000)));
    for (const w of all) w.abort();
    const [p, t, m, p2] = got as [CollectedEvent[], CollectedEvent[], CollectedEvent[], CollectedEvent[]];
    expect(p.map((e) => e.object.kind)).toEqual(Array(6).fill('ConfigMap'));
    expect(p.map((e) => e.object.data?.v)).toEqual(['1', '1', '2', '2', '2', '2']);
    expect(p2).toEqual(p);
    expect(t.map((e) => e.object.kind)).toEqual(Array(6).fill('Table'));
    expect(t.map((e) => e.object.rows[0].cells[0])).toEqual([
      'form-a',
      'form-b',
      'form-a',
      'form-b',
      'form-a',
      'form-b',
    ]);
    expect(m.map((e) => e.object.kind)).toEqual(Array(6).fill('PartialObjectMetadata'));
    expect(m.every((e) => e.object.data === undefined)).toBe(true);
    expect(m.map(summary)).toEqual(p.map(summary));
  });

  it('a watcher that reads nothing holds up neither the writes nor the other watchers', async () => {
    const rv = await currentRevision();
    const path = `${cms}?watch=1&resourceVersion=${rv}`;
    // Opened and never read until the end: its socket and buffers fill up with the large events.
    const stalled = new AbortController();
    const slow = await fetchWithCA(`${host.url}${path}`, { signal: stalled.signal });
    expect(slow.status).toBe(200);
    const fast = await openWatch(host.url, path);
    const names = Array.from({ length: 40 }, (_, i) => `slow-${String(i).padStart(2, '0')}`);
    const big = 'x'.repeat(64 * 1024);
    await churn(names, { big });
    const events = await fast.waitFor(names.length * 3, 30_000);
    fast.abort();
    expect(events.map(summary)).toEqual([
      ...names.map((n) => `ADDED ${n}`),
      ...names.map((n) => `MODIFIED ${n}`),
      ...names.map((n) => `DELETED ${n}`),
    ]);
    // The stalled watcher, read at last, still has every event in order.
    const reader = slow.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    const seen: string[] = [];
    while (seen.length < names.length * 3) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += value;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        seen.push(summary(JSON.parse(buf.slice(0, nl)) as CollectedEvent));
        buf = buf.slice(nl + 1);
      }
    }
    stalled.abort();
    expect(seen).toEqual(events.map(summary));
  });
});
