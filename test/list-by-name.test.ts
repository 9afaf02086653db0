/**
 * Lists with a `metadata.name=` field selector over HTTP, on the IndexedDB
 * store (Dexie over fake-indexeddb, as the browser host keeps its objects)
 * and on the memory store: the IndexedDB store reads only the keys of the
 * collection and the rows that end in that name (decision 0101), so every
 * selector here must list what the memory store lists, page for page —
 * across namespaces, with a near-miss name beside each match, combined with
 * other field and label requirements, and after a deletion and an update.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

const hosts: Record<'dexie' | 'memory', TestHost | undefined> = { dexie: undefined, memory: undefined };
const namespaces = ['by-name-a', 'by-name-b', 'by-name-c'];
const names = ['target', 'target.old', 'x-target', 'other'];

beforeAll(async () => {
  for (const storage of ['dexie', 'memory'] as const) {
    const host = await startTestHost({ storage });
    hosts[storage] = host;
    for (const ns of namespaces) {
      await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
      for (const [i, name] of names.entries()) {
        const created = await host.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: { metadata: { name, labels: { tier: i % 2 === 0 ? 'front' : 'back', ns } } },
        });
        expect(created.status).toBe(201);
      }
    }
    // A match deleted and one changed after the others were written.
    expect((await host.request('DELETE', '/api/v1/namespaces/by-name-b/configmaps/target')).status).toBe(200);
    const patched = await host.request('PATCH', '/api/v1/namespaces/by-name-c/configmaps/target', {
      body: { metadata: { labels: { tier: 'back' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(patched.status).toBe(200);
  }
});
afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host?.close()));
});

interface Page {
  items: { metadata: { name: string; namespace: string } }[];
  metadata: { continue?: string; remainingItemCount?: number };
}

/** Every page of a list, as `namespace/name` per page. */
async function pages(host: TestHost, path: string, limit: number): Promise<string[][]> {
  const all: string[][] = [];
  let token = '';
  for (let i = 0; i < 20; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const answer = await host.request(
      'GET',
      `${path}${sep}limit=${limit}${token === '' ? '' : `&continue=${encodeURIComponent(token)}`}`,
    );
    expect(answer.status, answer.text).toBe(200);
    const page = answer.body as Page;
    all.push(page.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`));
    expect(page.metadata.remainingItemCount).toBeUndefined();
    token = page.metadata.continue ?? '';
    if (token === '') return all;
  }
  throw new Error(`${path}: no last page`);
}

const cases: { selector: string; want: string[] }[] = [
  { selector: 'fieldSelector=metadata.name%3Dtarget', want: ['by-name-a/target', 'by-name-c/target'] },
  { selector: 'fieldSelector=metadata.name%3D%3Dtarget', want: ['by-name-a/target', 'by-name-c/target'] },
  {
    selector: 'fieldSelector=metadata.name%3Dtarget,metadata.namespace%3Dby-name-c',
    want: ['by-name-c/target'],
  },
  { selector: 'fieldSelector=metadata.name%3Dtarget&labelSelector=tier%3Dfront', want: ['by-name-a/target'] },
  {
    selector: 'fieldSelector=metadata.name%3Dtarget.old',
    want: ['by-name-a/target.old', 'by-name-b/target.old', 'by-name-c/target.old'],
  },
  { selector: 'fieldSelector=metadata.name%3Dnone', want: [] },
  {
    selector: 'fieldSelector=metadata.name!%3Dtarget,metadata.name!%3Dother&labelSelector=ns%3Dby-name-b',
    want: ['by-name-b/target.old', 'by-name-b/x-target'],
  },
];

describe('a list by name on the IndexedDB store lists what the memory store lists', () => {
  for (const { selector, want } of cases) {
    it(`${selector}, all namespaces and one, in pages of 1 and 500`, async () => {
      const { dexie, memory } = hosts as Record<'dexie' | 'memory', TestHost>;
      for (const limit of [1, 500]) {
        const path = `/api/v1/configmaps?${selector}`;
        const listed = await pages(dexie, path, limit);
        expect(listed.flat()).toEqual(want);
        expect(listed).toEqual(await pages(memory, path, limit));
        const inB = `/api/v1/namespaces/by-name-b/configmaps?${selector}`;
        expect(await pages(dexie, inB, limit)).toEqual(await pages(memory, inB, limit));
      }
    });
  }
});
