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
 * `x-bench-floor: store` is the scale bench's floor (decision 0125): the
 * trivial handler plus the one raw IndexedDB step the request needs, on the
 * server's own database (`x-bench-floor-db`), so that a figure at 100k objects
 * can be set beside what IndexedDB itself costs at that size. A GET reads the
 * row at `x-bench-floor-key` in one transaction and answers its object; a GET
 * with `limit` reads that many rows from the prefix `x-bench-floor-key` (the
 * range and the `getAll` a list uses) and answers them as a list; a POST writes
 * its body as a create does (an object row and a history row, one transaction
 * over `objects` and `changes`, committed at once), under `/~bench-floor/` and
 * at negative revisions, which no collection, revision read or history read of
 * the server reaches; a DELETE removes those rows again.
 * `npm run bench` compares the API's figures with these; nothing else sends
 * that header. A floor never creates a database or answers a 500 for what a
 * request got wrong: a store floor naming no existing database of the server's
 * shape is a 404, a body that is not JSON a 400, each a Status as the API's.
 */

import type { NativeDatabase, NativeRequest, NativeTransaction } from '../../../storage/dexie/write-batch';
import { prefixRange } from '../../../storage/keys';
import { withBodyBack } from './request-body';
import { badRequest, StatusError, toStatusError } from '../../../machinery/errors';

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

/** Where the store floor writes: outside every collection's prefix, at revisions no read of the server asks for. */
const storeFloorPrefix = '/~bench-floor/';
/** Negative and unique across worker restarts (a restarted worker starts again from its own clock). */
let storeFloorRevision = -Date.now() * 1000;

interface KeyRanges {
  bound(lower: string | number, upper: string | number, lowerOpen: boolean, upperOpen: boolean): unknown;
}
interface StoreDatabase extends NativeDatabase {
  onversionchange: (() => void) | null;
  close(): void;
}

/** The server's own database, one more connection to it, opened on first use (closed when an upgrade or a delete asks). */
const storeDatabases = new Map<string, Promise<StoreDatabase>>();

/** A 404 for a store floor whose database is not one of the server's (a Status, as the API's own). */
function noSuchDatabase(name: string): StatusError {
  return new StatusError(404, 'NotFound', `bench floor: no server database ${JSON.stringify(name)}`);
}

interface StoreIndexedDB {
  open(name: string): OpenRequest;
  databases?(): Promise<{ name?: string }[]>;
}

/**
 * Opens an existing database only: `open` without a version would create one named by any header, so the
 * name is looked up first; a database without the store's tables (not the server's) is refused too.
 */
async function openExistingStore(name: string): Promise<StoreDatabase> {
  const idb = (globalThis as unknown as { indexedDB: StoreIndexedDB }).indexedDB;
  if (name === '' || idb.databases === undefined) throw noSuchDatabase(name);
  if (!(await idb.databases()).some((d) => d.name === name)) throw noSuchDatabase(name);
  const db = await new Promise<StoreDatabase>((resolve, reject) => {
    const req = idb.open(name);
    req.onsuccess = () => resolve(req.result as unknown as StoreDatabase);
    req.onerror = () => reject(req.error);
  });
  const stores = (db as unknown as { objectStoreNames: { contains(name: string): boolean } })
    .objectStoreNames;
  if (!stores.contains('objects') || !stores.contains('changes')) {
    db.close();
    throw noSuchDatabase(name);
  }
  db.onversionchange = () => {
    storeDatabases.delete(name);
    db.close();
  };
  return db;
}

function openStoreDatabase(name: string): Promise<StoreDatabase> {
  let opened = storeDatabases.get(name);
  if (opened === undefined) {
    opened = openExistingStore(name);
    // A refusal is not kept: the database may exist by the next request.
    opened.catch(() => storeDatabases.delete(name));
    storeDatabases.set(name, opened);
  }
  return opened;
}

function settled<T>(request: NativeRequest): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result as T);
    request.onerror = () => reject(request.error);
  });
}

function done(tx: NativeTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('aborted'));
  });
}

function keyRanges(): KeyRanges {
  return (globalThis as unknown as { IDBKeyRange: KeyRanges }).IDBKeyRange;
}

const json = { 'content-type': 'application/json' };

/** The store floor (see above): the trivial handler plus one raw IndexedDB step on the server's database. */
async function storeFloor(request: Request): Promise<Response> {
  const db = await openStoreDatabase(request.headers.get('x-bench-floor-db') ?? '');
  const key = request.headers.get('x-bench-floor-key') ?? '';
  if (request.method === 'POST') {
    const object = parsedBody(await request.text());
    const revision = --storeFloorRevision;
    const floorKey = `${storeFloorPrefix}${-revision}`;
    const tx = db.transaction(['objects', 'changes'], 'readwrite');
    tx.objectStore('objects').add({ key: floorKey, revision, object });
    tx.objectStore('changes').add({ revision, type: 'ADDED', key: floorKey });
    tx.commit?.();
    await done(tx);
    return new Response(constant, { status: 201, headers: json });
  }
  if (request.method === 'DELETE') {
    const tx = db.transaction(['objects', 'changes'], 'readwrite');
    const ranges = keyRanges();
    const range = prefixRange(storeFloorPrefix);
    const remove = (store: string, query: unknown) =>
      (tx.objectStore(store) as unknown as { delete(query: unknown): NativeRequest }).delete(query);
    remove('objects', ranges.bound(storeFloorPrefix, range?.upper ?? storeFloorPrefix, false, true));
    remove('changes', ranges.bound(-Infinity, 0, false, true));
    tx.commit?.();
    await done(tx);
    return new Response(constant, { status: 200, headers: json });
  }
  const limit = new URL(request.url).searchParams.get('limit');
  const objects = db.transaction(['objects'], 'readonly').objectStore('objects');
  if (limit === null) {
    const row = await settled<{ object: unknown } | undefined>(objects.get(key));
    return new Response(row === undefined ? constant : JSON.stringify(row.object), {
      status: row === undefined ? 404 : 200,
      headers: json,
    });
  }
  const range = prefixRange(key);
  const rows =
    range === undefined
      ? []
      : await settled<{ object: unknown }[]>(
          objects.getAll(keyRanges().bound(range.lower, range.upper ?? '\uffff', false, true), Number(limit)),
        );
  return new Response(JSON.stringify({ kind: 'List', apiVersion: 'v1', items: rows.map((r) => r.object) }), {
    status: 200,
    headers: json,
  });
}

/** The body as JSON, or the API's 400 for a body that is not. */
function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badRequest(
      `bench floor: the body is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A floor's failure as a Status: the request's own fault as its code, anything else as the API's 500. */
function failed(error: unknown): Response {
  const status = toStatusError(error);
  return Response.json(status.status, { status: status.code });
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
    return floor === '1' || floor === 'blob' || floor === 'idb' || floor === 'store';
  },
  answer: async (request: Request): Promise<Response> => {
    try {
      const floor = request.headers.get('x-bench-floor');
      if (floor === 'store') return await storeFloor(withBodyBack(request));
      const original = withBodyBack(request);
      if (original.body === null) return constantResponse(request, floor);
      const body = await original.arrayBuffer();
      if (floor === 'idb') await writeOnce(parsedBody(new TextDecoder().decode(body)));
      return constantResponse(request, floor);
    } catch (error) {
      return failed(error);
    }
  },
};
