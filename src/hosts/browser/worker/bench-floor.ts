/**
 * The benchmark's floors in the browser host: a request carrying the header
 * `x-bench-floor: 1` is answered with a constant JSON body, on the same path
 * and through the same worker (the API's own MSW route handler asks this
 * first), without touching the server core; `x-bench-floor: blob` with the
 * same body as a Blob made once, as a kept GET is answered (decision 0087).
 * A request's body is read first, as the worker read every API request's body
 * before routing it until decision 0089 (the server core now reads it), so
 * that the trivial handler does the same work as before.
 *
 * `x-bench-floor: idb` is an informational floor (decision 0089): the trivial
 * handler that also decodes the body and writes it in one IndexedDB
 * transaction of its own (committed at once, as the store's batches are)
 * before answering — the composite floor measured inside the worker, where a
 * create's transaction runs, rather than in the page.
 * `npm run bench` compares the API's figures with these; nothing else sends
 * that header.
 */

import type { NativeTransaction } from '../../../storage/dexie/write-batch';
import { withBodyBack } from './request-body';

const constant = JSON.stringify({
  kind: 'ConfigMap',
  apiVersion: 'v1',
  metadata: { name: 'floor', namespace: 'default', resourceVersion: '1' },
  data: { k: 'v' },
});
let constantBlob: Blob | undefined;

/** The part of IndexedDB the floor uses (this module is also type-checked without DOM types, for its tests). */
interface FloorDatabase {
  transaction(stores: string[], mode: 'readwrite'): NativeTransaction;
  createObjectStore(name: string, options: { keyPath: string }): void;
}
interface OpenRequest {
  readonly result: FloorDatabase;
  readonly error: unknown;
  onupgradeneeded: (() => void) | null;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}

/** The informational floor's own database (not the server's), opened on first use. */
let floorDatabase: Promise<FloorDatabase> | undefined;
let floorWrites = 0;

function openFloorDatabase(): Promise<FloorDatabase> {
  return new Promise((resolve, reject) => {
    const idb = (globalThis as unknown as { indexedDB: { open(name: string, version: number): OpenRequest } })
      .indexedDB;
    const req = idb.open('orch-bench-floor', 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore('objects', { keyPath: 'key' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** One transaction writing `object` under a new key, committed at once. */
async function writeOnce(object: unknown): Promise<void> {
  const db = await (floorDatabase ??= openFloorDatabase());
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(['objects'], 'readwrite');
    tx.objectStore('objects').put({ key: `/core/configmaps/default/floor-${floorWrites++}`, object });
    tx.commit?.();
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('aborted'));
  });
}

function constantResponse(request: Request, floor: string | null): Response {
  return new Response(
    floor === 'blob' ? (constantBlob ??= new Blob([constant], { type: 'application/json' })) : constant,
    { status: request.method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json' } },
  );
}

/** Asked first inside the API's route handler (api-routes.ts), so that the floor and the API take one route. */
export const benchFloor = {
  matches: (request: Request): boolean => {
    const floor = request.headers.get('x-bench-floor');
    return floor === '1' || floor === 'blob' || floor === 'idb';
  },
  answer: async (request: Request): Promise<Response> => {
    const floor = request.headers.get('x-bench-floor');
    const original = withBodyBack(request);
    if (original.body === null) return constantResponse(request, floor);
    const body = await original.arrayBuffer();
    if (floor === 'idb') await writeOnce(JSON.parse(new TextDecoder().decode(body)) as unknown);
    return constantResponse(request, floor);
  },
};
