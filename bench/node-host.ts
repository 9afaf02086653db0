/**
 * Node host figures over real HTTPS (the host as `npm run serve` runs it):
 * creates per second (one at a time and 16 in flight) and GET p50/p99, for
 * the Dexie store over fake-indexeddb and for the in-memory store. Floors,
 * measured in the same run: the host's own trivial handler (`benchFloor`,
 * header `x-bench-floor: 1`) answering a constant on the same path through
 * the same TLS, HTTP server, adapter and target rewriting, with figure and
 * floor requests interleaved so that noise falls on both; and one
 * IndexedDB transaction (fake-indexeddb via Dexie) that bumps a counter
 * and writes the object.
 */

import Dexie from 'dexie';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { startNodeHost, type NodeHost } from '../src/hosts/node/host';
import { Agent } from 'undici';
import type { Dispatcher } from './host-client';
import { summarize, type Figure } from './report';

const creates = 600;
const gets = 1000;
const path = '/api/v1/namespaces/default/configmaps';
export const floorHeaders = { 'x-bench-floor': '1' };

function body(i: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `bench-${i}`, labels: { app: 'bench' } },
    data: { key: `value-${i}`, other: 'x'.repeat(64) },
  });
}

export interface Client {
  host: NodeHost;
  dispatcher: Dispatcher;
}

function request(
  c: Client,
  method: string,
  url: string,
  extra: Record<string, string>,
  payload?: string,
): Promise<Response> {
  return fetch(`${c.host.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${c.host.token}`, 'content-type': 'application/json', ...extra },
    dispatcher: c.dispatcher,
    ...(payload !== undefined ? { body: payload } : {}),
  });
}

export async function createRate(
  c: Client,
  width: number,
  offset: number,
  extra: Record<string, string> = {},
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < creates) {
        const i = offset + next++;
        const r = await request(c, 'POST', path, extra, body(i));
        if (r.status !== 201) throw new Error(`create answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return (creates / (performance.now() - start)) * 1000;
}

/** GET latencies of the object and of the floor, one after the other in each round. */
export async function getLatencies(
  c: Client,
  name: string,
): Promise<{ figure: { p50: number; p99: number }; floor: { p50: number; p99: number } }> {
  const figure: number[] = [];
  const floor: number[] = [];
  const once = async (extra: Record<string, string>, into: number[]): Promise<void> => {
    const t = performance.now();
    const r = await request(c, 'GET', `${path}/${name}`, extra);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`GET answered ${r.status}`);
    into.push(performance.now() - t);
  };
  // Warm both paths (JIT, TLS session) before sampling.
  for (let i = 0; i < 100; i++) {
    await once({}, []);
    await once(floorHeaders, []);
  }
  for (let i = 0; i < gets; i++) {
    // Alternate which goes first, so neither always follows the other's garbage.
    if (i % 2 === 0) {
      await once({}, figure);
      await once(floorHeaders, floor);
    } else {
      await once(floorHeaders, floor);
      await once({}, figure);
    }
  }
  return { figure: summarize(figure), floor: summarize(floor) };
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
  const storeSeq = await rawStoreRate(1);
  const storePar = await rawStoreRate(16);

  for (const storage of ['dexie', 'memory'] as const) {
    const host = await startNodeHost({ port: 0, storage, benchFloor: true });
    const agent = new Agent({ connect: host.caPEM !== undefined ? { ca: host.caPEM } : {} });
    const c: Client = { host, dispatcher: agent as unknown as Dispatcher };
    const section = `node host (${storage === 'dexie' ? 'Dexie + fake-indexeddb' : 'memory store'}, HTTPS)`;
    const floorSeq = await createRate(c, 1, 0, floorHeaders);
    const seq = await createRate(c, 1, 0);
    const floorPar = await createRate(c, 16, 0, floorHeaders);
    const par = await createRate(c, 16, creates);
    const get = await getLatencies(c, 'bench-1');
    await agent.close();
    await host.close();
    const floorName = 'trivial handler in the host, same path';
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
      { section, name: 'GET p50', value: get.figure.p50, unit: 'ms', floor: get.floor.p50, floorName },
      { section, name: 'GET p99', value: get.figure.p99, unit: 'ms', floor: get.floor.p99, floorName },
    );
  }
  return figures;
}
