/**
 * GETs answered from text kept beside the stored object (http/handlers/get-from-memory.ts), through the
 * in-process server: over the memory backend (Node), and over the browser's read cache on an IndexedDB
 * (fake-indexeddb) that a second writer shares, as a second tab's worker or the next worker version would.
 * For every form the text is kept in (plain JSON, `?pretty`, a curl user agent's default pretty,
 * `resourceVersion=0`) and the forms that are not (YAML, Table): the kept answer is byte for byte what
 * the ordinary read path writes, and after every kind of change — an update through the API, a write by the
 * other writer, a delete — each form answers the new object, never the old bytes. The read cache's setup
 * answers as the browser host does, with the kept text's `Blob` (decision 0087), read again for every answer.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { inProcessLocks } from '../src/storage/read-cache/writer-lease';
import type { Storage } from '../src/storage/types';
import { objectKey } from '../src/registry/keys';
import { writerOf } from './support/two-writers';

const token = 'get-from-memory-admin';
const CMS = '/api/v1/namespaces/default/configmaps';

/** Counts the reads the storage answered from memory, so a test can tell the kept-text path ran. */
function counted(storage: Storage): { storage: Storage; peeked: () => number } {
  let peeked = 0;
  const peek = storage.peekCurrent?.bind(storage);
  if (peek !== undefined)
    storage.peekCurrent = (key) => {
      const entry = peek(key);
      if (entry !== undefined && entry !== null) peeked++;
      return entry;
    };
  return { storage, peeked: () => peeked };
}

interface Form {
  name: string;
  query?: string;
  headers?: Record<string, string>;
  /** Kept beside the stored object (the others always take the ordinary path). */
  kept: boolean;
}

const forms: Form[] = [
  { name: 'JSON', kept: true },
  { name: 'JSON, ?pretty=true', query: 'pretty=true', kept: true },
  {
    name: 'JSON, a curl user agent (pretty by default)',
    headers: { 'user-agent': 'curl/8.5.0' },
    kept: true,
  },
  { name: 'JSON, resourceVersion=0', query: 'resourceVersion=0', kept: true },
  { name: 'YAML', headers: { accept: 'application/yaml' }, kept: false },
  {
    name: 'Table',
    headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    kept: false,
  },
];

interface Setup {
  name: string;
  secondWriter: boolean;
  open(): { api: ApiServer; peeked: () => number; other?: Storage; close?: () => Promise<void> };
}

let databases = 0;
const setups: Setup[] = [
  {
    name: 'memory backend',
    secondWriter: false,
    open: () => {
      const { storage, peeked } = counted(createMemoryStorage());
      return { api: server(storage), peeked };
    },
  },
  {
    name: 'read cache over IndexedDB, with a second writer',
    secondWriter: true,
    open: () => {
      const db = `get-from-memory-${++databases}`;
      const locks = inProcessLocks();
      const { storage, peeked } = counted(writerOf(db, locks));
      const other = writerOf(db, locks);
      return { api: server(storage, true), peeked, other, close: () => other.close() };
    },
  },
];

function server(storage: Storage, keptAnswersAsBlobs = false): ApiServer {
  return createApiServer({
    storage,
    profile: 'kubernetes',
    adminTokens: [token],
    controllers: false,
    keptAnswersAsBlobs,
  });
}

describe.each(setups)('GET from kept text: $name', (setup) => {
  let opened: ReturnType<Setup['open']>;
  beforeAll(async () => {
    opened = setup.open();
    await opened.api.ready;
  });
  afterAll(async () => {
    await opened.api.close();
    await opened.close?.();
  });

  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    opened.api.fetch(
      new Request(`http://sandbox.test${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    );
  const get = async (name: string, form: Form, resourceVersion?: string) => {
    // An exact resourceVersion takes the ordinary read path (it replaces the form's `resourceVersion=0`).
    const params = new URLSearchParams(form.query ?? '');
    if (resourceVersion !== undefined) params.set('resourceVersion', resourceVersion);
    const query = params.toString();
    const r = await call('GET', `${CMS}/${name}${query === '' ? '' : `?${query}`}`, form.headers);
    return { status: r.status, text: await r.text() };
  };
  /** What a form's answer says the object's data is. */
  const valueIn = (form: Form, text: string): string | undefined => {
    if (form.headers?.accept === 'application/yaml') return /\n {2}v: "?([^"\n]*)"?\n/.exec(text)?.[1];
    const body = JSON.parse(text) as { data?: { v?: string }; rows?: { object?: unknown }[] };
    if (body.rows !== undefined) return JSON.stringify(body.rows).includes('"name":"') ? 'table' : undefined;
    return body.data?.v;
  };

  /** Every form answers `want`; the kept ones byte for byte as the ordinary path (an exact resourceVersion). */
  const expectEveryForm = async (name: string, want: string) => {
    for (const form of forms) {
      const first = await get(name, form);
      const again = await get(name, form);
      expect(first.status, form.name).toBe(200);
      // A Table's age column may move between two answers; the kept forms may not.
      if (form.kept) expect(again.text, form.name).toBe(first.text);
      const got = valueIn(form, first.text);
      expect(got, form.name).toBe(form.headers?.accept?.includes('as=Table') === true ? 'table' : want);
      if (form.kept && form.headers?.accept === undefined) {
        const rv = (JSON.parse(first.text) as { metadata: { resourceVersion: string } }).metadata
          .resourceVersion;
        const ordinary = await get(name, form, rv);
        expect(ordinary.text, `${form.name}: the ordinary path's bytes`).toBe(first.text);
      }
    }
  };

  it('answers the kept text, and the new object after an update, a delete and a create again', async () => {
    const name = 'kept';
    expect((await call('POST', CMS, {}, { metadata: { name }, data: { v: '1' } })).status).toBe(201);
    const before = opened.peeked();
    await expectEveryForm(name, '1');
    // The kept-text path ran (the storage answered from memory), not only the ordinary one.
    expect(opened.peeked()).toBeGreaterThan(before);

    const current = (await (await call('GET', `${CMS}/${name}`)).json()) as Record<string, unknown>;
    expect((await call('PUT', `${CMS}/${name}`, {}, { ...current, data: { v: '2' } })).status).toBe(200);
    await expectEveryForm(name, '2');

    const patched = await call(
      'PATCH',
      `${CMS}/${name}`,
      { 'content-type': 'application/merge-patch+json' },
      { data: { v: '3' } },
    );
    expect(patched.status).toBe(200);
    await expectEveryForm(name, '3');

    expect((await call('DELETE', `${CMS}/${name}`)).status).toBe(200);
    for (const form of forms) expect((await get(name, form)).status, form.name).toBe(404);
    expect((await call('POST', CMS, {}, { metadata: { name }, data: { v: '4' } })).status).toBe(201);
    await expectEveryForm(name, '4');
  });

  // Only where a second writer shares the store (defined, not skipped, elsewhere).
  if (setup.secondWriter)
    it("answers what the second writer stored, then this server's next write", async () => {
      const name = 'shared';
      expect((await call('POST', CMS, {}, { metadata: { name }, data: { v: '1' } })).status).toBe(201);
      await expectEveryForm(name, '1');
      const other = opened.other as Storage;
      const key = objectKey({ group: '', resource: 'configmaps' }, 'default', name);
      const stored = await other.get(key);
      expect(stored).toBeDefined();
      const { object, revision } = stored as NonNullable<typeof stored>;
      await other.update(key, { ...object, data: { v: 'other' } }, revision);
      await expectEveryForm(name, 'other');
      const patched = await call(
        'PATCH',
        `${CMS}/${name}`,
        { 'content-type': 'application/merge-patch+json' },
        { data: { v: 'mine' } },
      );
      expect(patched.status).toBe(200);
      await expectEveryForm(name, 'mine');
    });
});
