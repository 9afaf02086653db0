// The worker's one API route: every prefix the server answers goes to it (and nothing else of the origin, nor
// another origin), and the benches' trivial handler is asked first inside it.
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { apiHandlers, pathOfSameOrigin } from './api-routes';
import { benchFloor } from './bench-floor';
import { withBodyAside } from './request-body';
import { openDatabase } from '../../../storage/dexie/schema';

const origin = 'https://sandbox.test';

describe('apiHandlers', () => {
  const served: string[] = [];
  const handlers = apiHandlers(
    origin,
    (request) => {
      served.push(new URL(request.url).pathname);
      return Promise.resolve(new Response('served'));
    },
    benchFloor,
  );
  const answer = async (url: string, headers: Record<string, string> = {}) => {
    const response = await getResponse(handlers, new Request(url, { headers }));
    return response === undefined ? undefined : response.text();
  };

  it('sends every API prefix to the server through one handler', async () => {
    expect(handlers).toHaveLength(1);
    for (const path of ['/api', '/api/v1/namespaces', '/apis/apps/v1', '/version', '/sandbox/v1/identities'])
      expect(await answer(`${origin}${path}`), path).toBe('served');
    expect(served).toEqual([
      '/api',
      '/api/v1/namespaces',
      '/apis/apps/v1',
      '/version',
      '/sandbox/v1/identities',
    ]);
  });

  it('leaves the shell, look-alike prefixes and other origins alone', async () => {
    served.length = 0;
    for (const url of [
      `${origin}/`,
      `${origin}/apisx`,
      `${origin}/assets/app.js`,
      'https://other.test/api/v1',
    ])
      expect(await answer(url), url).toBeUndefined();
    expect(served).toEqual([]);
  });

  it('answers the benches floor itself, without the server', async () => {
    served.length = 0;
    expect(
      JSON.parse(
        (await answer(`${origin}/api/v1/namespaces/default/configmaps/x`, { 'x-bench-floor': '1' })) ?? '',
      ),
    ).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'floor' } });
    expect(served).toEqual([]);
  });

  it('answers the benches Blob floor with the same body, without the server', async () => {
    served.length = 0;
    const asString = await answer(`${origin}/api/v1/namespaces/default/configmaps/x`, {
      'x-bench-floor': '1',
    });
    for (let i = 0; i < 2; i++)
      expect(
        await answer(`${origin}/api/v1/namespaces/default/configmaps/x`, { 'x-bench-floor': 'blob' }),
      ).toBe(asString);
    expect(served).toEqual([]);
  });

  it("reads a create's body in the floor, and writes it in a transaction of its own for the IndexedDB floor", async () => {
    served.length = 0;
    vi.stubGlobal('indexedDB', indexedDB);
    try {
      const create = (floor: string) =>
        getResponse(
          handlers,
          withBodyAside(
            new Request(`${origin}/api/v1/namespaces/default/configmaps`, {
              method: 'POST',
              headers: { 'x-bench-floor': floor, 'content-type': 'application/json' },
              body: JSON.stringify({ kind: 'ConfigMap', metadata: { name: `c-${floor}` } }),
            }),
          ),
        );
      for (const floor of ['1', 'idb']) {
        const response = await create(floor);
        expect(response?.status, floor).toBe(201);
        expect(JSON.parse((await response?.text()) ?? '')).toMatchObject({ metadata: { name: 'floor' } });
      }
      const stored = await new Promise<unknown[]>((resolve, reject) => {
        const open = indexedDB.open('orch-bench-floor');
        open.onsuccess = () => {
          const all = open.result.transaction('objects').objectStore('objects').getAll();
          all.onsuccess = () => resolve(all.result as unknown[]);
          all.onerror = () => reject(all.error);
        };
        open.onerror = () => reject(open.error);
      });
      expect(stored).toEqual([
        {
          key: '/core/configmaps/default/floor-0',
          object: { kind: 'ConfigMap', metadata: { name: 'c-idb' } },
        },
      ]);
      expect(served).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("answers the store floor from the server's own database, and writes and removes its creates outside it", async () => {
    served.length = 0;
    vi.stubGlobal('indexedDB', indexedDB);
    vi.stubGlobal('IDBKeyRange', IDBKeyRange);
    try {
      const db = openDatabase('orch-sandbox-floor-test', { indexedDB, IDBKeyRange });
      const row = (name: string, revision: number) => ({
        key: `/core/configmaps/default/${name}`,
        revision,
        object: { kind: 'ConfigMap', metadata: { name } },
      });
      await db.objects.bulkAdd([
        row('a', 1),
        row('b', 2),
        row('c', 3),
        { ...row('x', 4), key: '/core/secrets/default/x' },
      ]);
      await db.changes.bulkAdd(
        [1, 2, 3, 4].map((revision) => ({ revision, type: 'ADDED' as const, key: `k${revision}` })),
      );
      const floor = (key: string) => ({
        'x-bench-floor': 'store',
        'x-bench-floor-db': 'orch-sandbox-floor-test',
        'x-bench-floor-key': key,
      });
      const collection = `${origin}/api/v1/namespaces/default/configmaps`;
      expect(
        JSON.parse((await answer(`${collection}/b`, floor('/core/configmaps/default/b'))) ?? ''),
      ).toEqual(row('b', 2).object);
      const page = JSON.parse(
        (await answer(`${collection}?limit=2`, floor('/core/configmaps/default/'))) ?? '',
      ) as {
        items: unknown[];
      };
      expect(page.items).toEqual([row('a', 1).object, row('b', 2).object]);
      const send = (method: string, body?: string) =>
        getResponse(
          handlers,
          withBodyAside(new Request(collection, { method, headers: floor(''), ...(body ? { body } : {}) })),
        );
      for (const name of ['f1', 'f2'])
        expect((await send('POST', JSON.stringify({ metadata: { name } })))?.status).toBe(201);
      const written = await db.objects.where('key').startsWith('/~bench-floor/').toArray();
      expect(written.map((r) => r.object)).toEqual([
        { metadata: { name: 'f1' } },
        { metadata: { name: 'f2' } },
      ]);
      expect(written.every((r) => r.revision < 0)).toBe(true);
      expect(await db.changes.where('revision').below(0).count()).toBe(2);
      // The server's revision (the history's last key) is not moved by them.
      expect(await db.changes.orderBy('revision').lastKey()).toBe(4);
      expect((await send('DELETE'))?.status).toBe(200);
      expect(await db.objects.count()).toBe(4);
      expect(await db.changes.count()).toBe(4);
      expect(served).toEqual([]);
      db.close();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the bench floors on bad input', () => {
  const handlers = apiHandlers(origin, () => Promise.resolve(new Response('served')), benchFloor);
  const send = (method: string, headers: Record<string, string>, body?: string) =>
    getResponse(
      handlers,
      withBodyAside(
        new Request(`${origin}/api/v1/namespaces/default/configmaps`, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
        }),
      ),
    );

  it("answers a Status with the request's own code, and creates no database", async () => {
    vi.stubGlobal('indexedDB', indexedDB);
    vi.stubGlobal('IDBKeyRange', IDBKeyRange);
    try {
      // A database that exists but is not the server's: no `objects` and `changes` tables.
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('not-a-server-store', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('other');
        open.onsuccess = () => {
          open.result.close();
          resolve();
        };
        open.onerror = () => reject(open.error);
      });
      const before = (await indexedDB.databases()).map((d: { name?: string }) => d.name).sort();
      const store = (db?: string) => ({
        'x-bench-floor': 'store',
        ...(db !== undefined ? { 'x-bench-floor-db': db } : {}),
      });
      const cases: {
        name: string;
        method: string;
        headers: Record<string, string>;
        body?: string;
        code: number;
      }[] = [
        { name: 'store floor without a database', method: 'GET', headers: store(), code: 404 },
        { name: 'store floor naming no database', method: 'GET', headers: store('nowhere'), code: 404 },
        {
          name: 'store floor create naming no database',
          method: 'POST',
          headers: store('nowhere'),
          body: '{}',
          code: 404,
        },
        {
          name: "store floor on a database not the server's",
          method: 'GET',
          headers: store('not-a-server-store'),
          code: 404,
        },
        {
          name: 'IndexedDB floor with a body not JSON',
          method: 'POST',
          headers: { 'x-bench-floor': 'idb' },
          body: '{no',
          code: 400,
        },
      ];
      for (const c of cases) {
        const response = await send(c.method, c.headers, c.body);
        expect(response?.status, c.name).toBe(c.code);
        expect(await response?.json(), c.name).toMatchObject({
          kind: 'Status',
          status: 'Failure',
          code: c.code,
        });
      }
      expect((await indexedDB.databases()).map((d: { name?: string }) => d.name).sort(), 'databases').toEqual(
        before,
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('pathOfSameOrigin', () => {
  it('reads the path a URL parser would, without the query or fragment', () => {
    for (const url of [
      `${origin}/`,
      `${origin}/api/v1/namespaces?watch=1`,
      `${origin}/apis/apps/v1#x?y`,
      `${origin}/sandbox/v1/identities?certificates=deferred#top`,
      `${origin}/api/v1/namespaces/a%2Fb/configmaps`,
    ])
      expect(pathOfSameOrigin(url, origin), url).toBe(new URL(url).pathname);
  });
});
