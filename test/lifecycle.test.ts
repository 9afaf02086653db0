/**
 * The deletion lifecycle over real HTTP: finalizers keep a deleted object
 * terminating until the last one goes; no new finalizers on a terminating
 * object; propagation policies through the garbage collector (Background,
 * Foreground with blockOwnerDeletion, Orphan) and dangling owners; graceful
 * deletion of scheduled Pods; and namespace deletion with its conditions.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host.close();
});

const cms = '/api/v1/namespaces/default/configmaps';
const merge = 'application/merge-patch+json';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function gone(path: string): Promise<void> {
  await until(`${path} to be gone`, async () =>
    (await host.request('GET', path)).status === 404 ? true : undefined,
  );
}

async function owner(name: string): Promise<{ uid: string }> {
  const r = await host.request('POST', cms, { body: { metadata: { name } } });
  expect(r.status).toBe(201);
  return { uid: r.body.metadata.uid };
}

function ref(name: string, uid: string, block = false) {
  return { apiVersion: 'v1', kind: 'ConfigMap', name, uid, ...(block ? { blockOwnerDeletion: true } : {}) };
}

describe('finalizers', () => {
  it('a delete marks the object terminating; removing the last finalizer removes it', async () => {
    await host.request('POST', cms, {
      body: { metadata: { name: 'fin', finalizers: ['example.com/hold', 'example.com/also'] } },
    });
    const del = await host.request('DELETE', `${cms}/fin`);
    expect(del.status).toBe(200);
    expect(del.body.metadata.deletionTimestamp).toMatch(/Z$/);
    expect(del.body.metadata.deletionGracePeriodSeconds).toBe(0);
    const again = await host.request('DELETE', `${cms}/fin`);
    expect(again.body.metadata.deletionTimestamp).toBe(del.body.metadata.deletionTimestamp);
    const add = await host.request('PATCH', `${cms}/fin`, {
      body: { metadata: { finalizers: ['example.com/hold', 'example.com/also', 'example.com/new'] } },
      contentType: merge,
    });
    expect(add.status).toBe(422);
    expect(add.body.details.causes[0]).toMatchObject({
      field: 'metadata.finalizers',
      reason: 'FieldValueForbidden',
    });
    expect(add.body.message).toContain('no new finalizers can be added if the object is being deleted');
    const one = await host.request('PATCH', `${cms}/fin`, {
      body: { metadata: { finalizers: ['example.com/also'] } },
      contentType: merge,
    });
    expect(one.status).toBe(200);
    const last = await host.request('PATCH', `${cms}/fin`, {
      body: { metadata: { finalizers: null } },
      contentType: merge,
    });
    expect(last.status).toBe(200);
    expect((await host.request('GET', `${cms}/fin`)).status).toBe(404);
  });

  it('dryRun delete changes nothing', async () => {
    await host.request('POST', cms, { body: { metadata: { name: 'dry-del' } } });
    const r = await host.request('DELETE', `${cms}/dry-del?dryRun=All`);
    expect(r.status).toBe(200);
    expect((await host.request('GET', `${cms}/dry-del`)).status).toBe(200);
  });
});

describe('garbage collection', () => {
  it('Background: dependents of a deleted owner are deleted', async () => {
    const o = await owner('bg-owner');
    await host.request('POST', cms, {
      body: { metadata: { name: 'bg-dep', ownerReferences: [ref('bg-owner', o.uid)] } },
    });
    const del = await host.request('DELETE', `${cms}/bg-owner`, {
      body: { propagationPolicy: 'Background' },
    });
    expect(del.status).toBe(200);
    await gone(`${cms}/bg-dep`);
  });

  it('Foreground: the owner waits (foregroundDeletion) until blocking dependents are gone', async () => {
    const o = await owner('fg-owner');
    await host.request('POST', cms, {
      body: {
        metadata: {
          name: 'fg-dep',
          finalizers: ['example.com/slow'],
          ownerReferences: [ref('fg-owner', o.uid, true)],
        },
      },
    });
    const del = await host.request('DELETE', `${cms}/fg-owner`, {
      body: { propagationPolicy: 'Foreground' },
    });
    expect(del.body.metadata.finalizers).toContain('foregroundDeletion');
    expect(del.body.metadata.deletionTimestamp).toBeDefined();
    // The dependent is deleted, but its own finalizer holds it; so the owner waits.
    const dep = await until('dependent terminating', async () => {
      const r = await host.request('GET', `${cms}/fg-dep`);
      return r.body?.metadata?.deletionTimestamp !== undefined ? r : undefined;
    });
    expect(dep.status).toBe(200);
    expect((await host.request('GET', `${cms}/fg-owner`)).status).toBe(200);
    await host.request('PATCH', `${cms}/fg-dep`, {
      body: { metadata: { finalizers: null } },
      contentType: merge,
    });
    await gone(`${cms}/fg-dep`);
    await gone(`${cms}/fg-owner`);
  });

  it('Orphan: dependents lose the owner reference and stay', async () => {
    const o = await owner('or-owner');
    await host.request('POST', cms, {
      body: { metadata: { name: 'or-dep', ownerReferences: [ref('or-owner', o.uid)] } },
    });
    const del = await host.request('DELETE', `${cms}/or-owner?propagationPolicy=Orphan`);
    expect(del.body.metadata.finalizers).toContain('orphan');
    await gone(`${cms}/or-owner`);
    const dep = await host.request('GET', `${cms}/or-dep`);
    expect(dep.status).toBe(200);
    expect(dep.body.metadata.ownerReferences).toBeUndefined();
  });

  it('a dependent whose owner does not exist is deleted; a dangling reference beside a live owner is removed', async () => {
    await host.request('POST', cms, {
      body: {
        metadata: {
          name: 'dangling',
          ownerReferences: [ref('never-was', '11111111-1111-1111-1111-111111111111')],
        },
      },
    });
    await gone(`${cms}/dangling`);
    const o = await owner('live-owner');
    await host.request('POST', cms, {
      body: {
        metadata: {
          name: 'half',
          ownerReferences: [
            ref('live-owner', o.uid),
            ref('never-was', '22222222-2222-2222-2222-222222222222'),
          ],
        },
      },
    });
    const fixed = await until('dangling reference removed', async () => {
      const r = await host.request('GET', `${cms}/half`);
      return r.body?.metadata?.ownerReferences?.length === 1 ? r : undefined;
    });
    expect(fixed.body.metadata.ownerReferences[0].name).toBe('live-owner');
  });

  it("reads an owner again when the dependent's owners change, not on each of its writes", async () => {
    // The owner is of a kind nothing else reads (a PodTemplate), so the server's GET count of the kind is the
    // collector's owner reads; a dependent with a missing owner, once deleted, marks the queue as worked off.
    const templates = '/api/v1/namespaces/default/podtemplates';
    const t = await host.request('POST', templates, {
      body: {
        metadata: { name: 'gc-owner' },
        template: { spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    });
    const owned = [{ apiVersion: 'v1', kind: 'PodTemplate', name: 'gc-owner', uid: t.body.metadata.uid }];
    const missing = (name: string) => [
      { apiVersion: 'v1', kind: 'PodTemplate', name, uid: '33333333-3333-3333-3333-333333333333' },
    ];
    const ownerReads = async () => {
      const text = (await host.request('GET', '/metrics')).text;
      let n = 0;
      for (const l of text.split('\n'))
        if (
          l.startsWith('apiserver_request_total{') &&
          l.includes('resource="podtemplates"') &&
          l.includes('verb="GET"')
        )
          n += Number(l.slice(l.lastIndexOf(' ') + 1));
      return n;
    };
    const settled = async (name: string) => {
      await host.request('POST', cms, { body: { metadata: { name, ownerReferences: missing(name) } } });
      await gone(`${cms}/${name}`);
    };
    await host.request('POST', cms, { body: { metadata: { name: 'gc-dep', ownerReferences: owned } } });
    await settled('gc-mark-1');
    const before = await ownerReads();
    for (let i = 0; i < 5; i++)
      await host.request('PATCH', `${cms}/gc-dep`, { body: { data: { n: String(i) } }, contentType: merge });
    await settled('gc-mark-2');
    // One read: the marker's missing owner. The five writes of the dependent read nothing.
    expect((await ownerReads()) - before).toBe(1);
    expect((await host.request('GET', `${cms}/gc-dep`)).status).toBe(200);
  });
});

describe('pods', () => {
  const pods = '/api/v1/namespaces/default/pods';
  const pod = (name: string, nodeName?: string) => ({
    metadata: { name },
    spec: { ...(nodeName !== undefined ? { nodeName } : {}), containers: [{ name: 'c', image: 'nginx' }] },
  });

  it('an unscheduled Pod is deleted at once and answered with the object', async () => {
    await host.request('POST', pods, { body: pod('unscheduled') });
    const del = await host.request('DELETE', `${pods}/unscheduled`);
    expect(del.status).toBe(200);
    expect(del.body.kind).toBe('Pod');
    expect((await host.request('GET', `${pods}/unscheduled`)).status).toBe(404);
  });

  it('a scheduled Pod gets its grace period; gracePeriodSeconds=0 removes it', async () => {
    await host.request('POST', pods, { body: pod('scheduled', 'node-1') });
    const del = await host.request('DELETE', `${pods}/scheduled`);
    expect(del.body.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(Date.parse(del.body.metadata.deletionTimestamp)).toBeGreaterThan(Date.now() + 20_000);
    const shorter = await host.request('DELETE', `${pods}/scheduled?gracePeriodSeconds=5`);
    expect(shorter.body.metadata.deletionGracePeriodSeconds).toBe(5);
    const now = await host.request('DELETE', `${pods}/scheduled`, { body: { gracePeriodSeconds: 0 } });
    expect(now.status).toBe(200);
    expect((await host.request('GET', `${pods}/scheduled`)).status).toBe(404);
  });
});

describe('namespace deletion', () => {
  it('a deleted namespace turns Terminating, its content is deleted, progress shows in conditions, then it goes', async () => {
    await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } });
    const created = await host.request('GET', '/api/v1/namespaces/doomed');
    expect(created.body.spec.finalizers).toEqual(['orch']);
    await host.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: { metadata: { name: 'a' } } });
    await host.request('POST', '/api/v1/namespaces/doomed/configmaps', {
      body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } },
    });
    const del = await host.request('DELETE', '/api/v1/namespaces/doomed');
    expect(del.status).toBe(200);
    expect(del.body.status.phase).toBe('Terminating');
    expect(del.body.metadata.deletionTimestamp).toBeDefined();
    const create = await host.request('POST', '/api/v1/namespaces/doomed/configmaps', {
      body: { metadata: { name: 'late' } },
    });
    expect(create.status).toBe(403);
    expect(create.body.message).toContain('because it is being terminated');
    const waiting = await until('finalizers-remaining condition', async () => {
      const r = await host.request('GET', '/api/v1/namespaces/doomed');
      const c = r.body?.status?.conditions?.find(
        (x: { type: string }) => x.type === 'NamespaceFinalizersRemaining',
      );
      return c?.status === 'True' ? r : undefined;
    });
    const types = waiting.body.status.conditions.map((c: { type: string }) => c.type);
    expect(types).toEqual([
      'NamespaceDeletionDiscoveryFailure',
      'NamespaceDeletionGroupVersionParsingFailure',
      'NamespaceDeletionContentFailure',
      'NamespaceContentRemaining',
      'NamespaceFinalizersRemaining',
    ]);
    expect((await host.request('GET', '/api/v1/namespaces/doomed/configmaps/a')).status).toBe(404);
    await host.request('PATCH', '/api/v1/namespaces/doomed/configmaps/held', {
      body: { metadata: { finalizers: null } },
      contentType: merge,
    });
    await gone('/api/v1/namespaces/doomed');
  });
});
