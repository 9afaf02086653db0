/**
 * Node host figures over real HTTP: creates per second (one at a time and
 * 16 in flight) and GET p50/p99, for the Dexie store over fake-indexeddb
 * and for the in-memory store. Floors, measured in the same run: a trivial
 * handler answering a constant on the same path through the same HTTP
 * adapter, and one IndexedDB transaction (fake-indexeddb via Dexie) that
 * bumps a counter and writes the object.
 */

import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import Dexie from 'dexie';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { startNodeHost } from '../src/hosts/node/host';
import { summarize, type Figure } from './report';

const creates = 600;
const gets = 1000;
const path = '/api/v1/namespaces/default/configmaps';

function body(i: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `bench-${i}`, labels: { app: 'bench' } },
    data: { key: `value-${i}`, other: 'x'.repeat(64) },
  });
}

async function createRate(
  url: string,
  width: number,
  offset: number,
  headers: Record<string, string> = {},
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < creates) {
        const i = offset + next++;
        const r = await fetch(`${url}${path}`, {
          method: 'POST',
          body: body(i),
          headers: { 'content-type': 'application/json', ...headers },
        });
        if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return (creates / (performance.now() - start)) * 1000;
}

async function getLatencies(
  url: string,
  name: string,
  headers: Record<string, string> = {},
): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < gets; i++) {
    const t = performance.now();
    const r = await fetch(`${url}${path}/${name}`, { headers });
    await r.arrayBuffer();
    samples.push(performance.now() - t);
  }
  return summarize(samples);
}

async function trivialServer(): Promise<{ url: string; close(): void }> {
  const constant = body(0);
  const http = createAdaptorServer({
    fetch: (req: Request) =>
      new Response(constant, {
        status: req.method === 'POST' ? 201 : 200,
        headers: { 'content-type': 'application/json' },
      }),
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const port = (http.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => http.close() };
}

/** One Dexie transaction per write that bumps a counter and writes the object: the store's own floor. */
async function rawStoreRate(width: number): Promise<number> {
  const db = new Dexie(`bench-floor-${Date.now()}-${width}`, { indexedDB, IDBKeyRange });
  db.version(1).stores({ objects: 'key', meta: 'name' });
  await db.open();
  const objects = db.table('objects');
  const meta = db.table('meta');
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < creates) {
        const i = next++;
        await db.transaction('rw', objects, meta, async () => {
          const counter = ((await meta.get('rv')) as { value?: number } | undefined)?.value ?? 0;
          await meta.put({ name: 'rv', value: counter + 1 });
          await objects.put({
            key: `/core/configmaps/default/bench-${i}`,
            object: JSON.parse(body(i)) as unknown,
          });
        });
      }
    }),
  );
  const rate = (creates / (performance.now() - start)) * 1000;
  db.close();
  return rate;
}

export async function runNodeHostBench(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const trivial = await trivialServer();
  const floorSeq = await createRate(trivial.url, 1, 0);
  const floorPar = await createRate(trivial.url, 16, 0);
  const floorGet = await getLatencies(trivial.url, 'bench-1');
  trivial.close();
  const storeSeq = await rawStoreRate(1);
  const storePar = await rawStoreRate(16);

  for (const storage of ['dexie', 'memory'] as const) {
    const host = await startNodeHost({ port: 0, storage, insecureHttp: true });
    const section = `node host (${storage === 'dexie' ? 'Dexie + fake-indexeddb' : 'memory store'})`;
    // As the sandbox's administrator (a request without credentials is anonymous).
    const auth = { authorization: `Bearer ${host.token}` };
    const seq = await createRate(host.url, 1, 0, auth);
    const par = await createRate(host.url, 16, creates, auth);
    const get = await getLatencies(host.url, 'bench-1', auth);
    await host.close();
    const floorName = 'trivial handler, same path';
    figures.push(
      {
        section,
        name: 'creates/s sequential',
        value: seq,
        unit: '/s',
        floor: floorSeq,
        floorName,
        higherIsBetter: true,
      },
      {
        section,
        name: 'creates/s sequential',
        value: seq,
        unit: '/s',
        floor: storeSeq,
        floorName: '1 IDB txn: counter + object',
        higherIsBetter: true,
      },
      {
        section,
        name: 'creates/s 16 in flight',
        value: par,
        unit: '/s',
        floor: floorPar,
        floorName,
        higherIsBetter: true,
      },
      {
        section,
        name: 'creates/s 16 in flight',
        value: par,
        unit: '/s',
        floor: storePar,
        floorName: '1 IDB txn: counter + object',
        higherIsBetter: true,
      },
      { section, name: 'GET p50', value: get.p50, unit: 'ms', floor: floorGet.p50, floorName },
      { section, name: 'GET p99', value: get.p99, unit: 'ms', floor: floorGet.p99, floorName },
    );
  }
  return figures;
}
