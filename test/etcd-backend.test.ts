/**
 * The Node host on the etcd backend, over real HTTPS: a representative set
 * of the REST, list paging, watch, apply and 410 scenarios against
 * `--storage etcd`; an etcd member killed and restarted in the middle of a
 * write loop (no acknowledged write lost); a state moved from a memory
 * host into an etcd host and exported again unchanged; and leader election,
 * on by default with etcd: of two hosts, one runs the controllers. (Any other HTTP
 * suite runs against etcd with ORCH_TEST_STORAGE=etcd; see test/support/host.ts.)
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniformPolicy } from '../src/audit/policy';
import { eventually } from './support/crd';
import { startTestHost, fetchWithCA, type TestHost } from './support/host';
import { etcdSkipReason, startEtcd, type EtcdMember } from './support/etcd';
import { openWatch } from './support/watch';

const skip = etcdSkipReason();
if (skip) console.log(`SKIP etcd backend HTTP tests: ${skip}`);

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string> = { from: name }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

describe.skipIf(skip !== undefined)('the Node host on etcd', () => {
  let member: EtcdMember;
  let host: TestHost;

  beforeAll(async () => {
    member = await startEtcd();
    host = await startTestHost({ storage: 'etcd', etcd: { servers: [member.url] } });
  });

  afterAll(async () => {
    await host?.close();
    await member?.stop();
  });

  it('creates, reads, updates and deletes with the real codes, resourceVersions from etcd', async () => {
    const created = await host.request('POST', CONFIGMAPS, { body: cm('a') });
    expect(created.status).toBe(201);
    const rv = Number(created.body.metadata.resourceVersion);
    expect(rv).toBeGreaterThan(0);
    const again = await host.request('POST', CONFIGMAPS, { body: cm('a') });
    expect([again.status, again.body.reason, again.body.message]).toEqual([
      409,
      'AlreadyExists',
      'configmaps "a" already exists',
    ]);
    const got = await host.request('GET', `${CONFIGMAPS}/a`);
    expect(got.body).toEqual(created.body);
    const updated = await host.request('PUT', `${CONFIGMAPS}/a`, {
      body: { ...got.body, data: { n: '2' } },
    });
    expect(updated.status).toBe(200);
    expect(Number(updated.body.metadata.resourceVersion)).toBeGreaterThan(rv);
    const stale = await host.request('PUT', `${CONFIGMAPS}/a`, { body: { ...got.body, data: { n: '3' } } });
    expect([stale.status, stale.body.reason]).toEqual([409, 'Conflict']);
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect((await host.request('DELETE', `${CONFIGMAPS}/a`)).status).toBe(200);
    const gone = await host.request('GET', `${CONFIGMAPS}/a`);
    expect([gone.status, gone.body.reason]).toEqual([404, 'NotFound']);
  });

  it('pages a list at one revision with limit and continue', async () => {
    for (let i = 0; i < 5; i++)
      expect((await host.request('POST', CONFIGMAPS, { body: cm(`page-${i}`) })).status).toBe(201);
    const names: string[] = [];
    const revisions = new Set<string>();
    let token: string | undefined;
    do {
      const page = await host.request(
        'GET',
        `${CONFIGMAPS}?labelSelector=&limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
      );
      expect(page.status).toBe(200);
      names.push(...(page.body.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name));
      revisions.add(page.body.metadata.resourceVersion as string);
      token = page.body.metadata.continue as string | undefined;
      // A write between pages does not show in later pages: they read at the first page's revision.
      if (names.length === 2) await host.request('POST', CONFIGMAPS, { body: cm('page-9-late') });
    } while (token);
    expect(names.filter((n) => n.startsWith('page-'))).toEqual([
      'page-0',
      'page-1',
      'page-2',
      'page-3',
      'page-4',
    ]);
    expect(revisions.size).toBe(1);
  });

  it('watches from a resourceVersion and sees every write with its resourceVersion, in order', async () => {
    const list = await host.request('GET', CONFIGMAPS);
    const watch = await openWatch(
      host.url,
      `${CONFIGMAPS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    try {
      const created = await host.request('POST', CONFIGMAPS, { body: cm('w') });
      const updated = await host.request('PUT', `${CONFIGMAPS}/w`, {
        body: { ...created.body, data: { n: '1' } },
      });
      const deleted = await host.request('DELETE', `${CONFIGMAPS}/w`);
      const events = await watch.waitFor(3);
      expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
        ['ADDED', 'w'],
        ['MODIFIED', 'w'],
        ['DELETED', 'w'],
      ]);
      expect(events.slice(0, 2).map((e) => e.object.metadata.resourceVersion)).toEqual([
        created.body.metadata.resourceVersion,
        updated.body.metadata.resourceVersion,
      ]);
      expect(deleted.status).toBe(200);
      expect(Number(events[2]?.object.metadata.resourceVersion)).toBeGreaterThan(
        Number(updated.body.metadata.resourceVersion),
      );
    } finally {
      watch.abort();
    }
  });

  it('server-side apply creates and then updates through etcd', async () => {
    const path = `${CONFIGMAPS}/applied?fieldManager=test`;
    const yaml = (v: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  v: "${v}"\n`;
    const first = await host.request('PATCH', path, {
      body: yaml('1'),
      contentType: 'application/apply-patch+yaml',
    });
    expect(first.status).toBe(201);
    const second = await host.request('PATCH', path, {
      body: yaml('2'),
      contentType: 'application/apply-patch+yaml',
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ v: '2' });
    expect(second.body.metadata.managedFields[0].manager).toBe('test');
  });

  it('serves a watch from a compacted resourceVersion from the watch cache; a host started later answers 410', async () => {
    const old = (await host.request('POST', CONFIGMAPS, { body: cm('old') })).body.metadata
      .resourceVersion as string;
    await host.request('POST', CONFIGMAPS, { body: cm('newer') });
    expect((await host.request('POST', '/sandbox/v1/compact')).status).toBe(200);
    const watch = await openWatch(host.url, `${CONFIGMAPS}?watch=1&resourceVersion=${old}`);
    const [event] = await watch.waitFor(1);
    watch.abort();
    expect(event).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'newer' } } });
    // A server started over this etcd starts its caches now: etcd's history before that is not replayed.
    const later = await startTestHost({ storage: 'etcd', etcd: { servers: [member.url] } });
    try {
      const gone = await openWatch(later.url, `${CONFIGMAPS}?watch=1&resourceVersion=${old}`);
      await gone.ended;
      expect(gone.events.at(-1)).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
      const [, rv, start] =
        /^too old resource version: (\d+) \((\d+)\)$/.exec(gone.events.at(-1)?.object.message as string) ??
        [];
      expect(rv).toBe(old);
      expect(Number(start)).toBeGreaterThan(Number(old));
    } finally {
      await later.close();
    }
  });

  it('loses no acknowledged write when the etcd member is killed and restarted mid-loop', async () => {
    const acknowledged: string[] = [];
    let failed = 0;
    let afterRestart = 0;
    // Writes go on while the member is down and after it is back (the client waits out its circuit breaker).
    for (let i = 0; i < 400 && afterRestart < 20; i++) {
      if (i === 40) await member.kill();
      if (i === 60) await member.restart();
      const name = `loop-${i}`;
      const answer = await host.request('POST', CONFIGMAPS, { body: cm(name) }).catch(() => undefined);
      if (answer?.status === 201) {
        acknowledged.push(name);
        if (i >= 60) afterRestart++;
      } else {
        failed++;
        // Never a client error for a good request: a server error (or a dropped connection) while etcd is away.
        if (answer) expect(answer.status).toBeGreaterThanOrEqual(500);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    expect(afterRestart).toBe(20);
    const after = await host.request('GET', `${CONFIGMAPS}?limit=500`);
    const stored = new Set(
      (after.body.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name),
    );
    expect(acknowledged.filter((name) => !stored.has(name))).toEqual([]);
    console.log(
      `etcd restart loop: ${acknowledged.length} acknowledged, ${failed} refused while etcd was down`,
    );
  });
});

describe.skipIf(skip !== undefined)('moving a sandbox between a memory host and an etcd host', () => {
  it('exports from memory, imports into etcd, and exports the same objects again', async () => {
    const member = await startEtcd();
    const memory = await startTestHost();
    const etcd = await startTestHost({ storage: 'etcd', etcd: { servers: [member.url] } });
    try {
      for (let i = 0; i < 3; i++) await memory.request('POST', CONFIGMAPS, { body: cm(`moved-${i}`) });
      await memory.request('DELETE', `${CONFIGMAPS}/moved-1`);
      const exported = await (await fetchWithCA(`${memory.url}/sandbox/v1/export`)).text();
      const imported = await etcd.request('POST', '/sandbox/v1/import', { body: exported });
      expect(imported.status).toBe(200);
      const again = await (await fetchWithCA(`${etcd.url}/sandbox/v1/export`)).text();
      const objects = (text: string) =>
        (
          JSON.parse(text) as { data: { data: { tableName: string; rows: { key: string }[] }[] } }
        ).data.data.find((t) => t.tableName === 'objects')?.rows;
      // Controllers of the etcd host rewrite a few objects of their own (its root CA differs); the moved ones are the same rows.
      const moved = (text: string) =>
        objects(text)?.filter((row) => row.key.includes('/configmaps/default/moved-'));
      expect(moved(again)).toHaveLength(2);
      expect(moved(again)).toEqual(moved(exported));
      const got = await etcd.request('GET', `${CONFIGMAPS}/moved-2`);
      expect(got.body.data).toEqual({ from: 'moved-2' });
      // Writes continue after the imported revisions.
      const next = await etcd.request('POST', CONFIGMAPS, { body: cm('next') });
      expect(Number(next.body.metadata.resourceVersion)).toBeGreaterThan(
        Number(got.body.metadata.resourceVersion),
      );
    } finally {
      await etcd.close();
      await memory.close();
      await member.stop();
    }
  });
});

describe.skipIf(skip !== undefined)('leader election with --storage etcd', () => {
  it('is on without the flag: of two hosts started the same way, one runs the controllers', async () => {
    const member = await startEtcd();
    const dir = mkdtempSync(join(tmpdir(), 'orch-election-'));
    const logs = ['a', 'b'].map((n) => join(dir, `audit-${n}.log`));
    const hosts: TestHost[] = [];
    try {
      for (const logPath of logs)
        hosts.push(
          await startTestHost({
            profile: 'kubernetes',
            storage: 'etcd',
            etcd: { servers: [member.url] },
            audit: { policy: uniformPolicy('Metadata'), logPath },
          }),
        );
      const [a, b] = hosts as [TestHost, TestHost];
      const lease = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
      const holder = await eventually(
        async () => (await a.request('GET', lease)).body?.spec?.holderIdentity as string | undefined,
        'a leader',
      );
      expect(holder).toMatch(/_/);
      // The namespace controller finalizes a deleted namespace: only the leader's controllers call their API.
      await b.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'elected' } } });
      await b.request('DELETE', '/api/v1/namespaces/elected');
      await eventually(
        async () =>
          (await a.request('GET', '/api/v1/namespaces/elected')).status === 404 ? true : undefined,
        'the namespace finalized',
        30_000,
      );
      const controllerCalls = logs.map(
        (path) =>
          readFileSync(path, 'utf8')
            .split('\n')
            .filter(
              (line) =>
                line.includes('"username":"system:serviceaccount:') && line.includes('namespace-controller'),
            ).length,
      );
      expect(controllerCalls.filter((n) => n > 0)).toHaveLength(1);
    } finally {
      for (const h of hosts) await h.close();
      await member.stop();
    }
  }, 60_000);
});
