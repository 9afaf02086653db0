/**
 * Wide objects through the in-process server (the shared core both hosts
 * run): a ConfigMap of 30,000 keys is created, patched by one key and read
 * back whole, with its field ownership recorded key by key; and while each
 * of those requests runs, other requests are answered — `/livez` probes
 * sent one after another keep coming back before the big request does,
 * because long work lets others run between its slices
 * (machinery/cooperative.ts). Before, the request held the only thread
 * from start to end: no probe sent after it started came back before it.
 * No time is measured; `npm run bench -- wide` does that.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/server/index';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import { awaitedLater } from './support/awaited-later';

const token = 'wide-objects-admin';
const CMS = '/api/v1/namespaces/default/configmaps';
const keys = 30_000;
let api: ApiServer;

beforeAll(async () => {
  api = createApiServer({ storage: createMemoryStorage(), profile: 'kubernetes', adminTokens: [token] });
  await api.ready;
});

afterAll(async () => {
  await api?.close();
});

function request(method: string, path: string, body?: string, contentType = 'application/json'): Request {
  return new Request(`http://sandbox.test${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    ...(body !== undefined ? { body } : {}),
  });
}

/** A create of the ConfigMap `name` holding `data`. */
function configMapRequest(name: string, data: Record<string, string>): Request {
  return request(
    'POST',
    CMS,
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
  );
}

/**
 * Sends `big` and, one after another until it answers, `/livez` probes; returns the big answer and how many
 * probes came back while it was still running.
 */
async function whileRunning(big: Request): Promise<{ response: Response; answeredMeanwhile: number }> {
  let done = false;
  // Handled at once (the probes below are awaited first), and done however it ends: a failure throws at its await.
  const pending = awaitedLater(
    api
      .fetch(big)
      .then(async (r) => new Response(await r.text(), { status: r.status, headers: r.headers }))
      .finally(() => (done = true)),
  );
  let answeredMeanwhile = 0;
  while (!done) {
    // A probe arrives as a new task, as a request from a socket does (not in the same turn as the last).
    await new Promise((resolve) => setTimeout(resolve, 0));
    const probe = await api.fetch(request('GET', '/livez'));
    expect(probe.status).toBe(200);
    await probe.text();
    if (!done) answeredMeanwhile++;
  }
  return { response: await pending, answeredMeanwhile };
}

it('a 30,000-key ConfigMap is created, patched and read back while other requests are answered', async () => {
  const data: Record<string, string> = {};
  for (let i = 0; i < keys; i++) data[`k${i}`] = `v${i}`;

  const created = await whileRunning(configMapRequest('wide', data));
  expect(created.response.status).toBe(201);
  // Other clients were served while it ran (a probe takes one turn; the create takes many slices).
  expect(created.answeredMeanwhile).toBeGreaterThanOrEqual(3);

  const patched = await whileRunning(
    request('PATCH', `${CMS}/wide`, '{"data":{"k5":"changed"}}', 'application/merge-patch+json'),
  );
  expect(patched.response.status).toBe(200);
  expect(patched.answeredMeanwhile).toBeGreaterThanOrEqual(3);

  const read = await api.fetch(request('GET', `${CMS}/wide`));
  const cm = (await read.json()) as {
    data: Record<string, string>;
    metadata: {
      managedFields: {
        manager: string;
        operation: string;
        fieldsV1: { 'f:data'?: Record<string, unknown> };
      }[];
    };
  };
  expect(Object.keys(cm.data)).toHaveLength(keys);
  expect(cm.data.k5).toBe('changed');
  expect(cm.data.k29999).toBe('v29999');
  // Ownership is recorded per key: the creator owns them all, in the real server's (sorted) order.
  const owned = Object.keys(cm.metadata.managedFields[0]?.fieldsV1['f:data'] ?? {}).filter((k) => k !== '.');
  expect(owned).toHaveLength(keys);
  expect(owned.slice(0, 3)).toEqual(['f:k0', 'f:k1', 'f:k10']);
}, 120_000);

it('a one-key patch of a wide object with dryRun answers the patched object and stores nothing', async () => {
  const before = (await (await api.fetch(request('GET', `${CMS}/wide`))).json()) as {
    metadata: { resourceVersion: string };
  };
  const dry = await whileRunning(
    request('PATCH', `${CMS}/wide?dryRun=All`, '{"data":{"k7":"dry"}}', 'application/merge-patch+json'),
  );
  expect(dry.response.status).toBe(200);
  expect(((await dry.response.json()) as { data: Record<string, string> }).data.k7).toBe('dry');
  const after = (await (await api.fetch(request('GET', `${CMS}/wide`))).json()) as {
    data: Record<string, string>;
    metadata: { resourceVersion: string };
  };
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(after.data.k7).toBe('v7');
}, 120_000);

it("a wide object's answer, written in slices, is the same text as one JSON.stringify, compact and ?pretty", async () => {
  const compact = await (await api.fetch(request('GET', `${CMS}/wide`))).text();
  expect(compact).toBe(`${JSON.stringify(JSON.parse(compact))}\n`);
  const pretty = await (await api.fetch(request('GET', `${CMS}/wide?pretty=true`))).text();
  expect(pretty).toBe(`${JSON.stringify(JSON.parse(compact), null, 2)}\n`);
});

it("a wide ConfigMap's key and size checks, run in slices, still refuse a bad key and too much data", async () => {
  const data: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) data[`k${i}`] = 'v';
  data['bad key'] = 'v';
  const refused = await api.fetch(configMapRequest('bad', data));
  expect(refused.status).toBe(422);
  const status = (await refused.json()) as { details: { causes: { field: string }[] } };
  expect(status.details.causes.map((c) => c.field)).toEqual(['data[bad key]']);
  delete data['bad key'];
  data['big'] = 'x'.repeat(1024 * 1024);
  const tooBig = await api.fetch(configMapRequest('big', data));
  expect(tooBig.status).toBe(422);
  expect(((await tooBig.json()) as { message: string }).message).toContain('must have at most 1048576 bytes');
});

it("the in-process controller-manager's metadata-only list and watch carry no managedFields; other clients' do", async () => {
  const accept = { accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1' };
  const listed = async (trims: boolean) => {
    const req = new Request(`http://sandbox.test${CMS}?fieldSelector=metadata.name%3Dwide`, {
      headers: { authorization: `Bearer ${token}`, ...accept },
    });
    const r = await api.fetch(req, trims ? { trimsManagedFields: true } : undefined);
    return ((await r.json()) as { items: { metadata: Record<string, unknown> }[] }).items[0]?.metadata;
  };
  const plain = await listed(false);
  const trimmed = await listed(true);
  expect(plain?.managedFields).toBeDefined();
  expect(trimmed?.managedFields).toBeUndefined();
  expect({ ...trimmed, managedFields: plain?.managedFields }).toEqual(plain);

  const watched = async (trims: boolean) => {
    const req = new Request(
      `http://sandbox.test${CMS}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dwide`,
      {
        headers: { authorization: `Bearer ${token}`, accept: accept.accept.replace('List', '') },
      },
    );
    const r = await api.fetch(req, trims ? { trimsManagedFields: true } : undefined);
    const reader = (r.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('\n')) text += (await reader.read()).value ?? '';
    await reader.cancel();
    return (
      JSON.parse(text.slice(0, text.indexOf('\n'))) as { object: { metadata: Record<string, unknown> } }
    ).object.metadata;
  };
  expect((await watched(false)).managedFields).toBeDefined();
  expect((await watched(true)).managedFields).toBeUndefined();
});
