/**
 * A create's answer encoded while its write commits (http/handlers/create-answer.ts), through the in-process
 * server over the browser's storage stack (the read cache over IndexedDB, fake-indexeddb) that a second writer
 * shares with a writer outside the lease. The answer made early is byte for byte what the ordinary path writes (a GET at the create's
 * resourceVersion, the same encoder), keeps the request's warnings, and goes out only for the object that was
 * stored: a commit IndexedDB refuses (a name the other writer took) answers its error, and one tried again
 * after the other writer took the revision answers the revision it was stored at.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../src/api/meta';
import { createApiServer, type ApiServer } from '../src/server/index';
import { inProcessLocks } from '../src/storage/read-cache/writer-lease';
import type { Storage } from '../src/storage/types';
import { objectKey } from '../src/registry/keys';
import { writerOf } from './support/two-writers';
import { indexedDB, IDBKeyRange } from 'fake-indexeddb';
import { createDexieStorage } from '../src/storage/dexie/dexie-storage';

const token = 'create-answer-admin';
const CMS = '/api/v1/namespaces/default/configmaps';

/** Counts the objects the storage showed a create while it committed (the early answer's input). */
function counted(storage: Storage): { storage: Storage; issued: () => number } {
  let issued = 0;
  const create = storage.create.bind(storage);
  storage.create = (key, object, onIssued) =>
    create(
      key,
      object,
      onIssued === undefined
        ? undefined
        : (stored) => {
            issued++;
            onIssued(stored);
          },
    );
  return { storage, issued: () => issued };
}

describe('a create answered with text made while it commits', () => {
  let api: ApiServer;
  let other: Storage;
  let issued: () => number;
  beforeAll(async () => {
    const db = 'create-answer';
    const locks = inProcessLocks();
    const mine = counted(writerOf(db, locks));
    issued = mine.issued;
    // A writer outside the lease (an earlier build, decision 0086): this server keeps believing its revision.
    other = createDexieStorage({ name: db, indexedDB, IDBKeyRange });
    api = createApiServer({
      storage: mine.storage,
      profile: 'kubernetes',
      adminTokens: [token],
      controllers: false,
    });
    await api.ready;
  });
  afterAll(async () => {
    await api.close();
    await other.close();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api.fetch(
      new Request(`http://sandbox.test${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
  /** Creates `body` (with `query`); the answer's status, text and Warning headers, and whether it was made early. */
  const create = async (body: unknown, query = '') => {
    const before = issued();
    const r = await call('POST', `${CMS}${query}`, body);
    return {
      status: r.status,
      text: await r.text(),
      warning: r.headers.get('warning'),
      early: issued() > before,
    };
  };
  /** The ordinary read path's bytes for the object at `rv` (the same encoder the create's answer takes). */
  const ordinary = async (name: string, rv: string, pretty = false) =>
    (await call('GET', `${CMS}/${name}?resourceVersion=${rv}${pretty ? '&pretty=true' : ''}`)).text();
  const rvOf = (text: string) => (JSON.parse(text) as KubeObject).metadata?.resourceVersion ?? '';
  /** The other writer stores ConfigMap `name` in `default` straight into the shared IndexedDB; its key. */
  const otherWrites = async (name: string, uid: string, data?: Record<string, string>) => {
    const key = objectKey({ group: '', resource: 'configmaps' }, 'default', name);
    await other.create(key, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'default', uid, creationTimestamp: '2026-01-01T00:00:00Z' },
      ...(data !== undefined ? { data } : {}),
    });
    return key;
  };

  it('answers the stored object as the ordinary path encodes it, plain and pretty, warnings kept', async () => {
    const plain = await create({ metadata: { name: 'plain' }, data: { v: '1' } });
    expect(plain.status).toBe(201);
    expect(plain.early).toBe(true);
    expect(plain.text).toBe(await ordinary('plain', rvOf(plain.text)));

    const pretty = await create({ metadata: { name: 'pretty' }, data: { v: '1' } }, '?pretty=true');
    expect(pretty.status).toBe(201);
    expect(pretty.early).toBe(true);
    expect(pretty.text).toBe(await ordinary('pretty', rvOf(pretty.text), true));

    const warned = await create(
      { metadata: { name: 'warned' }, data: { v: '1' }, unknownField: 1 },
      '?fieldValidation=Warn',
    );
    expect(warned.status).toBe(201);
    expect(warned.early).toBe(true);
    expect(warned.warning).toContain('unknownField');
    expect(warned.text).toBe(await ordinary('warned', rvOf(warned.text)));

    const generated = await create({ metadata: { generateName: 'gen-' }, data: { v: '1' } });
    expect(generated.status).toBe(201);
    const name = (JSON.parse(generated.text) as KubeObject).metadata?.name ?? '';
    expect(name).toMatch(/^gen-/);
    expect(generated.text).toBe(await ordinary(name, rvOf(generated.text)));
  });

  it('answers the error of a commit IndexedDB refused, not the object it had encoded', async () => {
    await create({ metadata: { name: 'warm' } });
    // The other writer takes the name: this server's belief about the store is now wrong.
    const key = await otherWrites('taken', 'other-uid', { v: 'other' });
    const refused = await create({ metadata: { name: 'taken' }, data: { v: 'mine' } });
    // Its object was issued (and encoded) before IndexedDB refused the key; the answer is the refusal.
    expect(refused.early).toBe(true);
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toMatchObject({ kind: 'Status', reason: 'AlreadyExists' });
    const stored = await other.get(key);
    expect(stored?.object.metadata?.uid).toBe('other-uid');
  });

  it('answers the revision a create was stored at after the other writer took the one it expected', async () => {
    const first = await create({ metadata: { name: 'before' }, data: { v: '1' } });
    expect(first.early).toBe(true);
    await otherWrites('by-other', 'u2');
    const after = await create({ metadata: { name: 'after' }, data: { v: '1' } });
    expect(after.status).toBe(201);
    expect(after.early).toBe(true);
    expect(Number(rvOf(after.text))).toBeGreaterThan(Number(rvOf(first.text)) + 1);
    expect(after.text).toBe(await ordinary('after', rvOf(after.text)));
  });

  it('makes nothing early for a dry run or YAML', async () => {
    const dry = await create({ metadata: { name: 'dry' }, data: { v: '1' } }, '?dryRun=All');
    expect(dry.status).toBe(201);
    expect(dry.early).toBe(false);
    const before = issued();
    const yaml = await call('POST', CMS, { metadata: { name: 'yaml' } }, { accept: 'application/yaml' });
    expect(yaml.status).toBe(201);
    expect(await yaml.text()).toContain('name: yaml');
    expect(issued()).toBe(before);
  });
});
