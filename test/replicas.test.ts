// Several API server replicas over one store behave as one API server: a write through one is seen by a watch on
// another, in order and with the same resourceVersions; continue tokens and resourceVersions of one are good on the
// others; an informer behind a balancer keeps every event while the replica it watches is killed; and the
// controllers run in one replica at a time, failing over through the controller manager's Lease when the leader
// stops. Over an in-process memory store always, and over a throwaway etcd member when /usr/bin/etcd runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../src/api/meta';
import type { AuditEvent } from '../src/api/audit';
import { listWatch } from '../src/client/list-watch';
import { uniformPolicy } from '../src/audit/policy';
import { ApiError } from '../src/client/errors';
import { namingProfile } from '../src/machinery/naming';
import {
  balancer,
  clientOf,
  etcdStore,
  etcdStoreSkipReason,
  memoryStore,
  startReplicas,
  type Replica,
  type SharedStore,
} from './support/replicas';
import { eventually } from './support/bootstrap-tokens';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';
import { startEtcd, type EtcdMember } from './support/etcd';
import { awaitedLater } from './support/awaited-later';

const profile = namingProfile('orch');
const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespace: 'default' };
const namespaces = { group: '', version: 'v1', resource: 'namespaces' };
const leases = {
  group: profile.suffixed('coordination'),
  version: 'v1',
  resource: 'leases',
  namespace: profile.systemNamespace,
};

const etcdReason = etcdStoreSkipReason();
if (etcdReason !== undefined) console.log(`SKIP replicas over etcd: ${etcdReason}`);

const backends: { name: string; skip: string | undefined; open: () => Promise<SharedStore> }[] = [
  { name: 'memory', skip: undefined, open: async () => memoryStore() },
  { name: 'etcd', skip: etcdReason, open: etcdStore },
];

const rvOf = (o: { metadata?: { resourceVersion?: string } }): string => o.metadata?.resourceVersion ?? '';
const configMap = (name: string, n: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { n: String(n) },
});

describe.each(backends)('replicas over $name', ({ name, skip, open }) => {
  describe.skipIf(skip !== undefined)(`one API server${skip !== undefined ? ` (SKIP: ${skip})` : ''}`, () => {
    let store: SharedStore;
    let replicas: Replica[] = [];
    beforeAll(async () => {
      store = await open();
      // The data path alone: without leader election every replica would run its own controllers.
      replicas = await startReplicas(store, ['a', 'b', 'c'], () => ({ controllers: false }));
    }, 60_000);
    afterAll(async () => {
      for (const r of replicas) await r.kill();
      await store?.close();
    });

    it('a write through A is seen by a watch on B in order with the same resourceVersions', async () => {
      const [a, b] = replicas as [Replica, Replica];
      const from = rvOf(await b.client.list(configmaps));
      const abort = new AbortController();
      const seen: { type: string; name: string; rv: string }[] = [];
      const expected: { type: string; name: string; rv?: string }[] = [];
      const watching = awaitedLater(
        (async () => {
          for await (const event of b.client.watch(configmaps, { resourceVersion: from }, abort.signal)) {
            const object = event.object as KubeObject;
            seen.push({ type: event.type, name: object.metadata?.name ?? '', rv: rvOf(object) });
          }
        })().catch((e: unknown) => {
          if (!abort.signal.aborted) throw e;
        }),
      );
      for (let i = 0; i < 10; i++) {
        const created = await a.client.create(configmaps, configMap(`order-${i}`, 0));
        expected.push({ type: 'ADDED', name: `order-${i}`, rv: rvOf(created) });
      }
      for (let i = 0; i < 10; i += 2) {
        const current = await a.client.get({ ...configmaps, name: `order-${i}` });
        const updated = await a.client.update(
          { ...configmaps, name: `order-${i}` },
          { ...current, data: { n: '1' } },
        );
        expected.push({ type: 'MODIFIED', name: `order-${i}`, rv: rvOf(updated) });
      }
      for (let i = 1; i < 10; i += 3) {
        await a.client.delete({ ...configmaps, name: `order-${i}` });
        expected.push({ type: 'DELETED', name: `order-${i}` });
      }
      await eventually(async () => (seen.length >= expected.length ? true : undefined), 'every event on B');
      abort.abort();
      await watching;
      expect(seen.map((e) => [e.type, e.name])).toEqual(expected.map((e) => [e.type, e.name]));
      for (const [i, e] of expected.entries()) if (e.rv !== undefined) expect(seen[i]?.rv).toBe(e.rv);
      const rvs = seen.map((e) => Number(e.rv));
      expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
      expect(new Set(rvs).size).toBe(rvs.length);
    });

    it("accepts another replica's continue tokens and resourceVersions", async () => {
      const [a, b, c] = replicas as [Replica, Replica, Replica];
      for (let i = 0; i < 5; i++) await a.client.create(configmaps, configMap(`page-${i}`, i));
      const all = (await a.client.list(configmaps)).items.map((o) => o.metadata?.name);
      const names: (string | undefined)[] = [];
      let token: string | undefined;
      let snapshot: string | undefined;
      // Page 1 from A, page 2 from B, the rest from C: one snapshot.
      for (const replica of [a, b, c, c, c, c, c, c, c, c, c, c]) {
        const page = await replica.client.list(configmaps, { limit: 3, continue: token });
        snapshot ??= rvOf(page);
        expect(rvOf(page)).toBe(snapshot);
        names.push(...page.items.map((o) => o.metadata?.name));
        token = page.metadata?.continue;
        if (token === undefined || token === '') break;
      }
      expect(names).toEqual(all);
      // A version written through A reads the same through B (exact) and C (not older than).
      const written = await a.client.create(configmaps, configMap('exact', 0));
      const exact = await b.client.list(configmaps, {
        resourceVersion: rvOf(written),
        resourceVersionMatch: 'Exact',
      });
      expect(exact.items.find((o) => o.metadata?.name === 'exact')?.metadata?.resourceVersion).toBe(
        rvOf(written),
      );
      const got = await c.client.get({ ...configmaps, name: 'exact' }, { resourceVersion: rvOf(written) });
      expect(rvOf(got)).toBe(rvOf(written));
    });

    it('knows on B the cluster IP and node port a Service took through A, and frees them when A deletes it', async () => {
      const [a, b] = replicas as [Replica, Replica];
      const services = { group: '', version: 'v1', resource: 'services', namespace: 'default' };
      const body = (name: string): KubeObject => ({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { type: 'NodePort', clusterIP: '10.0.0.77', ports: [{ port: 80, nodePort: 30377 }] },
      });
      // A dry run on B checks its allocators without taking anything.
      const dryRunOnB = async (): Promise<number> => {
        try {
          await b.client.create(services, body('on-b'), { dryRun: 'All' });
          return 201;
        } catch (e) {
          if (e instanceof ApiError) return e.code;
          throw e;
        }
      };
      await a.client.create(services, body('on-a'));
      // B hears A's commit through the store (at once in memory, through the etcd watch otherwise).
      await eventually(async () => ((await dryRunOnB()) === 422 ? true : undefined), 'B holding what A took');
      await a.client.delete({ ...services, name: 'on-a' });
      await eventually(
        async () => ((await dryRunOnB()) === 201 ? true : undefined),
        'B freeing what A gave up',
      );
    });

    it('an informer behind a balancer misses no event when the replica it watches is killed', async () => {
      const [a, b, c] = replicas as [Replica, Replica, Replica];
      const ns = { ...configmaps, namespace: 'informer' };
      await a.client.create(namespaces, {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'informer' },
      });
      const client = clientOf(balancer([b, c]));
      const state = new Map<string, string>();
      const seenVersions = new Set<string>();
      let lists = 0;
      let events = 0;
      let watches = 0;
      let lastVersion = '';
      const abort = new AbortController();
      const loop = awaitedLater(
        listWatch({
          client,
          ref: ns,
          signal: abort.signal,
          backoff: { initialMs: 10, maxMs: 50 },
          list: async () => {
            const list = await client.list(ns);
            lists++;
            state.clear();
            for (const o of list.items) state.set(o.metadata?.name ?? '', rvOf(o));
            return rvOf(list);
          },
          handlers: {
            onWatching: () => {
              watches++;
            },
            onList: (rv) => {
              lastVersion = rv;
            },
            onEvent: (event) => {
              const key = event.object.metadata?.name ?? '';
              lastVersion = rvOf(event.object);
              if (event.type === 'BOOKMARK') return;
              events++;
              seenVersions.add(rvOf(event.object));
              if (event.type === 'DELETED') state.delete(key);
              else state.set(key, rvOf(event.object));
            },
          },
        }),
      );
      await eventually(async () => (lists > 0 ? true : undefined), 'the first list');
      const written: string[] = [];
      let deletes = 0;
      for (let i = 0; i < 60; i++) {
        const key = `item-${i % 15}`;
        if (i === 30) await b.kill();
        let object: KubeObject;
        if (i < 15) object = await a.client.create(ns, configMap(key, i));
        else if (i % 7 === 0) {
          // A delete answers with a Success Status, as the real server does for ConfigMaps: no version to check.
          await a.client.delete({ ...ns, name: key });
          deletes++;
          object = await a.client.create(ns, configMap(key, i));
        } else {
          const current = await a.client.get({ ...ns, name: key });
          object = await a.client.update({ ...ns, name: key }, { ...current, data: { n: String(i) } });
        }
        written.push(rvOf(object));
      }
      const final = await c.client.list(ns);
      const want = new Map(final.items.map((o) => [o.metadata?.name ?? '', rvOf(o)]));
      await eventually(
        async () => (Number(lastVersion) >= Number(rvOf(final)) ? true : undefined),
        'caught up',
      );
      abort.abort();
      await loop;
      expect(state).toEqual(want);
      expect(lists).toBe(1);
      // The watch on B ended when B was killed and resumed on C from the last version seen.
      expect(watches).toBeGreaterThan(1);
      // One event per write, none twice, every written version among them.
      expect(events).toBe(written.length + deletes);
      expect(written.filter((rv) => !seenVersions.has(rv))).toEqual([]);
    });
  });

  it.skipIf(skip !== undefined)(
    `replicas started together on an empty store agree on their keys${skip !== undefined ? ` (SKIP: ${skip})` : ''}`,
    async () => {
      const store = await open();
      const replicas = await startReplicas(store, ['x', 'y'], () => ({ controllers: false }), true);
      try {
        const [x, y] = replicas as [Replica, Replica];
        for (let i = 0; i < 3; i++) await x.client.create(configmaps, configMap(`together-${i}`, i));
        const first = await x.client.list(configmaps, { limit: 1 });
        const rest = await y.client.list(configmaps, { continue: first.metadata?.continue });
        expect([...first.items, ...rest.items].map((o) => o.metadata?.name)).toEqual([
          'together-0',
          'together-1',
          'together-2',
        ]);
        // The same generated tokens and cluster CA: a token or a client certificate from one is good on the other.
        const [ix, iy] = await Promise.all([x.api.identities(), y.api.identities()]);
        // A service-account token is minted per call: the same key signs it (its header names the key).
        const keyOf = (token: string | undefined) =>
          token?.split('.').length === 3 ? token.split('.')[0] : token;
        expect(iy.map((i) => [i.name, keyOf(i.token)])).toEqual(ix.map((i) => [i.name, keyOf(i.token)]));
        const [cx, cy] = await Promise.all([
          x.api.servingCertificate(['localhost'], []),
          y.api.servingCertificate(['localhost'], []),
        ]);
        expect(cy.caPEM).toBe(cx.caPEM);
      } finally {
        for (const r of replicas) await r.kill();
        await store.close();
      }
    },
    60_000,
  );

  describe.skipIf(skip !== undefined)(
    `controllers in one replica at a time${skip !== undefined ? ` (SKIP: ${skip})` : ''}`,
    () => {
      let store: SharedStore;
      let replicas: Replica[] = [];
      const audit = new Map<string, AuditEvent[]>();
      beforeAll(async () => {
        store = await open();
        replicas = await startReplicas(store, ['ha-a', 'ha-b', 'ha-c'], (replica) => {
          const events: AuditEvent[] = [];
          audit.set(replica, events);
          return {
            leaderElection: {
              leaderElect: true,
              identity: replica,
              // Short, so the test need not wait 15 s; long enough that a slow store on a busy machine does not
              // make the leader miss its renew deadline.
              leaseDurationMs: 3000,
              renewDeadlineMs: 2000,
              retryPeriodMs: 300,
            },
            audit: { policy: uniformPolicy('Metadata'), sinks: [{ write: (e) => events.push(e) }] },
          };
        });
      }, 60_000);
      afterAll(async () => {
        for (const r of replicas) await r.kill();
        await store?.close();
      });

      const holder = async (client: Replica['client']): Promise<{ holder: string; transitions: number }> => {
        const lease = await client.get<
          KubeObject & { spec?: { holderIdentity?: string; leaseTransitions?: number } }
        >({ ...leases, name: 'kube-controller-manager' });
        return { holder: lease.spec?.holderIdentity ?? '', transitions: lease.spec?.leaseTransitions ?? 0 };
      };
      const live = () => replicas.filter((r) => r.alive);
      /** Successful finalize calls of the namespace controller, per replica that served them. */
      const finalizes = (namespace: string) =>
        [...audit].map(([replica, events]) => ({
          replica,
          count: events.filter(
            (e) =>
              e.stage === 'ResponseComplete' &&
              e.objectRef?.resource === 'namespaces' &&
              e.objectRef.subresource === 'finalize' &&
              e.objectRef.name === namespace &&
              e.responseStatus?.code === 200,
          ).length,
        }));
      const controllerUsers = (replica: string) =>
        (audit.get(replica) ?? []).filter((e) =>
          e.user.username.startsWith(`system:serviceaccount:${profile.systemNamespace}:`),
        );

      async function deleteNamespace(via: Replica, namespace: string): Promise<void> {
        await via.client.create(namespaces, {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: namespace },
        });
        await via.client.create({ ...configmaps, namespace }, configMap('inside', 0));
        await via.client.delete({ ...namespaces, name: namespace });
        await eventually(async () => {
          try {
            await via.client.get({ ...namespaces, name: namespace });
            return undefined;
          } catch (e) {
            if (e instanceof ApiError && e.code === 404) return true;
            throw e;
          }
        }, `namespace ${namespace} finalized`);
        // The finalize call's audit event is written as its response completes, which may be after the GET above.
        await eventually(
          async () => (finalizes(namespace).some((c) => c.count > 0) ? true : undefined),
          `the finalize of ${namespace} audited`,
        );
      }

      it('one replica holds the lease and only its controllers act; another takes over when it stops', async () => {
        const first = await eventually(async () => {
          try {
            const h = await holder(replicas[0]!.client);
            return h.holder !== '' ? h : undefined;
          } catch (e) {
            if (e instanceof ApiError && e.code === 404) return undefined;
            throw e;
          }
        }, 'a leader');
        const leader = replicas.find((r) => r.name === first.holder)!;
        expect(leader).toBeDefined();
        const follower = live().find((r) => r !== leader)!;

        await deleteNamespace(follower, 'failover-one');
        expect((await holder(follower.client)).holder).toBe(leader.name);
        expect(finalizes('failover-one')).toEqual(
          replicas.map((r) => ({ replica: r.name, count: r === leader ? 1 : 0 })),
        );
        for (const r of replicas) if (r !== leader) expect(controllerUsers(r.name)).toEqual([]);

        const stoppedAt = Date.now();
        await leader.kill();
        const second = await eventually(async () => {
          const h = await holder(follower.client);
          return h.holder !== first.holder ? h : undefined;
        }, 'a new leader');
        console.log(
          `replicas over ${name}: the lease moved from ${first.holder} to ${second.holder} in ${Date.now() - stoppedAt} ms`,
        );
        expect(live().map((r) => r.name)).toContain(second.holder);
        expect(second.transitions).toBe(first.transitions + 1);

        const newLeader = replicas.find((r) => r.name === second.holder)!;
        const other = live().find((r) => r !== newLeader)!;
        await deleteNamespace(other, 'failover-two');
        expect(finalizes('failover-two')).toEqual(
          replicas.map((r) => ({ replica: r.name, count: r === newLeader ? 1 : 0 })),
        );
        expect(controllerUsers(other.name)).toEqual([]);
      }, 60_000);
    },
  );
});

// The same over real HTTPS: two Node hosts (as two `npm run serve --storage etcd --leader-elect` processes would be)
// on one etcd member, each with its own etcd client, serving certificate and listening socket.
describe.skipIf(etcdReason !== undefined)(
  `two Node hosts on one etcd${etcdReason !== undefined ? ` (SKIP: ${etcdReason})` : ''}`,
  () => {
    let member: EtcdMember;
    const hosts: TestHost[] = [];
    const closed = new Set<TestHost>();
    beforeAll(async () => {
      member = await startEtcd();
      for (const replica of ['host-a', 'host-b'])
        hosts.push(
          await startTestHost({
            storage: 'etcd',
            etcd: { servers: [member.url] },
            leaderElection: {
              leaderElect: true,
              identity: replica,
              leaseDurationMs: 3000,
              renewDeadlineMs: 2000,
              retryPeriodMs: 300,
            },
          }),
        );
    }, 60_000);
    afterAll(async () => {
      for (const h of hosts) if (!closed.has(h)) await h.close();
      await member?.stop();
    });

    it('a write through one host reaches a watch on the other; the controllers fail over', async () => {
      const [a, b] = hosts as [TestHost, TestHost];
      const listed = await b.request('GET', '/api/v1/namespaces/default/configmaps');
      const watch = await openWatch(
        b.url,
        `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${listed.body.metadata.resourceVersion}`,
      );
      const written: string[] = [];
      for (let i = 0; i < 5; i++) {
        const created = await a.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: configMap(`https-${i}`, i),
        });
        expect(created.status).toBe(201);
        written.push(created.body.metadata.resourceVersion);
      }
      const events = await watch.waitFor(5);
      watch.abort();
      expect(events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual(
        written.map((rv) => ['ADDED', rv]),
      );

      const leasePath = `/apis/${leases.group}/v1/namespaces/${leases.namespace}/leases/kube-controller-manager`;
      const holderVia = async (h: TestHost) => (await h.request('GET', leasePath)).body?.spec?.holderIdentity;
      const first = await eventually(async () => (await holderVia(a)) ?? undefined, 'a leader');
      const [leader, follower] = first === 'host-a' ? [a, b] : [b, a];
      await leader.close();
      closed.add(leader);
      const second = await eventually(
        async () => ((await holderVia(follower)) !== first ? holderVia(follower) : undefined),
        'a new leader',
      );
      expect(second).toBe(first === 'host-a' ? 'host-b' : 'host-a');
      // The new leader's namespace controller finalizes a deleted namespace.
      await follower.request('POST', '/api/v1/namespaces', {
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after-failover' } },
      });
      await follower.request('DELETE', '/api/v1/namespaces/after-failover');
      await eventually(
        async () =>
          (await follower.request('GET', '/api/v1/namespaces/after-failover')).status === 404
            ? true
            : undefined,
        'the namespace finalized by the new leader',
      );
    }, 60_000);
  },
);
