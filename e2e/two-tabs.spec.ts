/**
 * (b) One server for all tabs: pages of one browser context are controlled by
 * the same service worker, so a write in one is visible to a read in the
 * other at once, resourceVersions from both tabs form one increasing
 * sequence, and a watch in one tab sees the other tab's writes in order.
 * Needs the core's CRUD (and watch for the last test).
 */

import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { apiOk, openSandbox, uniqueName, type ListOf, type ObjectWithMeta } from './support/sandbox';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

function configMap(name: string, data: Record<string, string> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

async function twoTabs(context: BrowserContext): Promise<[Page, Page]> {
  const a = await context.newPage();
  const b = await context.newPage();
  await openSandbox(a);
  await openSandbox(b);
  return [a, b];
}

test('a write in tab A is visible to a read in tab B at once', async ({ context }) => {
  const [a, b] = await twoTabs(context);
  const name = uniqueName('shared');
  const created = await apiOk<ObjectWithMeta>(a, 'POST', CONFIGMAPS, configMap(name, { from: 'a' }), 201);
  const read = await apiOk<ObjectWithMeta & { data: Record<string, string> }>(
    b,
    'GET',
    `${CONFIGMAPS}/${name}`,
  );
  expect(read.data).toEqual({ from: 'a' });
  expect(read.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
});

test('both tabs observe one resourceVersion sequence', async ({ context }) => {
  const [a, b] = await twoTabs(context);
  const prefix = uniqueName('seq');
  const versions: bigint[] = [];
  for (let i = 0; i < 6; i++) {
    const tab = i % 2 === 0 ? a : b;
    const created = await apiOk<ObjectWithMeta>(tab, 'POST', CONFIGMAPS, configMap(`${prefix}-${i}`), 201);
    versions.push(BigInt(created.metadata.resourceVersion));
  }
  for (let i = 1; i < versions.length; i++) expect(versions[i]! > versions[i - 1]!).toBe(true);

  for (const tab of [a, b]) {
    const list = await apiOk<ListOf<ObjectWithMeta>>(tab, 'GET', CONFIGMAPS);
    expect(BigInt(list.metadata.resourceVersion) >= versions[versions.length - 1]!).toBe(true);
    const ours = list.items
      .filter((item) => item.metadata.name.startsWith(prefix))
      .map((item) => BigInt(item.metadata.resourceVersion));
    expect(ours).toEqual(versions);
  }
});

test("a watch in tab A sees tab B's writes in order", async ({ context }) => {
  const [a, b] = await twoTabs(context);
  const name = uniqueName('watched');
  const start = await apiOk<ListOf<ObjectWithMeta>>(a, 'GET', CONFIGMAPS);
  await a.evaluate((path) => {
    const state = {
      events: [] as { type: string; name: string; resourceVersion: string }[],
      abort: new AbortController(),
    };
    (globalThis as unknown as { orchWatch: typeof state }).orchWatch = state;
    void (async () => {
      // As the sandbox's admin: a request without credentials is anonymous.
      const listed = (await (await fetch('/sandbox/v1/identities')).json()) as {
        items: { name: string; token?: string }[];
      };
      const token = listed.items.find((i) => i.name === 'admin')?.token ?? '';
      const response = await fetch(path, {
        signal: state.abort.signal,
        headers: { authorization: `Bearer ${token}` },
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffered += value;
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          if (line.trim() === '') continue;
          const event = JSON.parse(line) as {
            type: string;
            object: { metadata: { name: string; resourceVersion: string } };
          };
          state.events.push({
            type: event.type,
            name: event.object.metadata.name,
            resourceVersion: event.object.metadata.resourceVersion,
          });
        }
      }
    })().catch(() => undefined);
  }, `${CONFIGMAPS}?watch=1&resourceVersion=${start.metadata.resourceVersion}`);

  const created = await apiOk<ObjectWithMeta>(b, 'POST', CONFIGMAPS, configMap(name, { step: '1' }), 201);
  const updated = await apiOk<ObjectWithMeta>(b, 'PUT', `${CONFIGMAPS}/${name}`, {
    ...configMap(name, { step: '2' }),
    metadata: created.metadata,
  });
  // A configmap's DELETE answers with a Success Status, not the object: its deletion revision shows only in the watch.
  await apiOk(b, 'DELETE', `${CONFIGMAPS}/${name}`);

  type Seen = { type: string; name: string; resourceVersion: string };
  const seen = () =>
    a.evaluate(
      (n) =>
        (globalThis as unknown as { orchWatch: { events: Seen[] } }).orchWatch.events.filter(
          (e) => e.name === n,
        ),
      name,
    );
  await expect.poll(async () => (await seen()).map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
  const [added, modified, removed] = await seen();
  expect(added?.resourceVersion).toBe(created.metadata.resourceVersion);
  expect(modified?.resourceVersion).toBe(updated.metadata.resourceVersion);
  expect(BigInt(removed?.resourceVersion ?? '0') > BigInt(updated.metadata.resourceVersion)).toBe(true);
  await a.evaluate(() =>
    (globalThis as unknown as { orchWatch: { abort: AbortController } }).orchWatch.abort.abort(),
  );
});
