/**
 * Many watchers of one collection through the in-process server: each
 * event is encoded once per content type and the same bytes are handed to
 * every watcher of that type (the very same buffer, which only the
 * in-process interface can show), while each watcher still gets every event
 * in order. With 1,000 watchers this is what keeps a write's fan-out to one
 * encoding and a socket write per watcher (`npm run bench -- watchers`
 * measures the delivery and `/livez` under load).
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { namingProfile } from '../src/machinery/naming';

const token = 'encode-once-admin';
const CMS = '/api/v1/namespaces/default/configmaps';
let api: ApiServer;

beforeAll(async () => {
  api = createApiServer({ storage: createMemoryStorage(), profile: 'kubernetes', adminTokens: [token] });
  await api.ready;
});

afterAll(async () => {
  await api?.close();
});

function request(method: string, path: string, headers: Record<string, string> = {}, body?: string): Request {
  return new Request(`http://sandbox.test${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body } : {}),
  });
}

/**
 * The controllers start beside the first answers, and one of them publishes `kube-root-ca.crt` into every
 * namespace: the watch starts after it is there, or its creation would be one more event in the stream.
 */
async function rootCaPublished(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const r = await api.fetch(request('GET', `${CMS}/kube-root-ca.crt`));
    if (r.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('kube-root-ca.crt was not published into default within 10 s');
}

it('every watcher of a content type gets the same bytes of each event, every event, in order', async () => {
  await rootCaPublished();
  const list = (await (await api.fetch(request('GET', CMS))).json()) as {
    metadata: { resourceVersion: string };
  };
  const path = `${CMS}?watch=1&resourceVersion=${list.metadata.resourceVersion}`;
  const protobuf = namingProfile('kubernetes').protobufMediaType;
  const open = (accept: string) => api.fetch(request('GET', path, { accept }));
  const json = await Promise.all(Array.from({ length: 300 }, () => open('application/json')));
  const proto = await Promise.all(Array.from({ length: 50 }, () => open(protobuf)));
  for (const r of [...json, ...proto]) expect(r.status).toBe(200);
  const readers = [...json, ...proto].map((r) => (r.body as ReadableStream<Uint8Array>).getReader());

  for (const name of ['one', 'two', 'three']) {
    const created = await api.fetch(
      request('POST', CMS, {}, JSON.stringify({ metadata: { name }, data: { k: name } })),
    );
    expect(created.status).toBe(201);
  }
  // Three events each; a watcher's chunks are its events (one frame per event).
  const chunks = await Promise.all(
    readers.map(async (reader) => {
      const got: Uint8Array[] = [];
      while (got.length < 3) {
        const { value, done } = await reader.read();
        if (done === true) break;
        got.push(value);
      }
      await reader.cancel();
      return got;
    }),
  );
  const jsonChunks = chunks.slice(0, 300);
  const protoChunks = chunks.slice(300);
  for (let e = 0; e < 3; e++) {
    const firstJson = jsonChunks[0]?.[e];
    const firstProto = protoChunks[0]?.[e];
    expect(firstJson).toBeDefined();
    expect(firstProto).toBeDefined();
    // One encoding per content type, shared by every watcher of it.
    expect(jsonChunks.every((c) => c[e] === firstJson)).toBe(true);
    expect(protoChunks.every((c) => c[e] === firstProto)).toBe(true);
    expect(firstJson).not.toBe(firstProto);
  }
  const names = jsonChunks[0]?.map(
    (c) =>
      (JSON.parse(new TextDecoder().decode(c)) as { object: { metadata: { name: string } } }).object.metadata
        .name,
  );
  expect(names).toEqual(['one', 'two', 'three']);
});
