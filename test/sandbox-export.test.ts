/**
 * The sandbox's state export and import over real HTTP: `GET
 * /sandbox/v1/export` downloads the whole state in Dexie's export format,
 * `POST /sandbox/v1/import` replaces the state with it (ending open watches
 * with a 410 so clients relist), with streamed progress on request, refusing
 * what is not an export of this profile; and a state exported from the
 * memory store imports into a Dexie-backed host.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { from: name },
});

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost();
});

afterAll(async () => {
  await host.close();
});

async function exportText(target: TestHost): Promise<string> {
  const response = await fetchWithCA(`${target.url}/sandbox/v1/export`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('content-disposition')).toMatch(
    /^attachment; filename="orch-sandbox-orch-rv\d+\.json"$/,
  );
  return response.text();
}

describe('sandbox state export and import', () => {
  it('exports, and an import brings that state back and ends open watches with 410', async () => {
    expect((await host.request('POST', CONFIGMAPS, { body: cm('kept') })).status).toBe(201);
    const exported = await exportText(host);
    expect(JSON.parse(exported)).toMatchObject({ formatName: 'dexie', formatVersion: 1 });
    const exportedRevision = (await host.request('GET', '/sandbox/v1/settings')).body.revision as number;

    expect((await host.request('POST', CONFIGMAPS, { body: cm('after-export') })).status).toBe(201);
    const list = await host.request('GET', CONFIGMAPS);
    const watch = await openWatch(
      host.url,
      `${CONFIGMAPS}?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`,
    );

    const imported = await host.request('POST', '/sandbox/v1/import', { body: exported });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ profile: 'orch', revision: exportedRevision });

    await watch.ended;
    expect(watch.events.at(-1)).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', code: 410, reason: 'Expired' },
    });
    expect((await host.request('GET', `${CONFIGMAPS}/kept`)).status).toBe(200);
    expect((await host.request('GET', `${CONFIGMAPS}/after-export`)).status).toBe(404);
    // Writes continue after the imported revision.
    const next = await host.request('POST', CONFIGMAPS, { body: cm('next') });
    expect(Number(next.body.metadata.resourceVersion)).toBe(exportedRevision + 1);
  });

  it("writes objects in Go's field order, without adding Go's zero values, and imports them unchanged", async () => {
    const templates = '/api/v1/namespaces/default/podtemplates';
    const created = await host.request('POST', templates, {
      body: {
        template: {
          spec: { containers: [{ image: 'nginx', name: 'c' }] },
          metadata: { labels: { app: 'x' } },
        },
        metadata: { name: 'export-order', labels: { z: '1', a: '2' } },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.template.metadata).toEqual({ creationTimestamp: null, labels: { app: 'x' } });
    type Row = { object: { metadata: { name: string } } & Record<string, unknown> };
    const rows = (text: string, table: string): Row[] =>
      (JSON.parse(text).data.data as { tableName: string; rows: Row[] }[]).find((t) => t.tableName === table)
        ?.rows ?? [];
    const exported = await exportText(host);
    const stored = rows(exported, 'objects').find((r) => r.object.metadata.name === 'export-order')?.object;
    const change = rows(exported, 'changes').find((r) => r.object.metadata.name === 'export-order')?.object;
    for (const o of [stored, change]) {
      const t = o as Record<string, Record<string, Record<string, unknown>>>;
      expect(Object.keys(t)).toEqual(['kind', 'apiVersion', 'metadata', 'template']);
      expect(Object.keys(t.metadata ?? {}).slice(0, 4)).toEqual([
        'name',
        'namespace',
        'uid',
        'resourceVersion',
      ]);
      expect(Object.keys(t.metadata?.labels ?? {})).toEqual(['a', 'z']);
      expect(Object.keys(t.template ?? {})).toEqual(['metadata', 'spec']);
      expect(
        Object.keys((t.template?.spec as { containers: object[] }).containers[0] ?? {}).slice(0, 2),
      ).toEqual(['name', 'image']);
      // Go's zero values are the answers' business: the template's metadata stays as stored.
      expect(t.template?.metadata).toEqual({ labels: { app: 'x' } });
    }
    const imported = await host.request('POST', '/sandbox/v1/import', { body: exported });
    expect(imported.status).toBe(200);
    const after = await host.request('GET', `${templates}/export-order`);
    expect(after.body).toEqual(created.body);
  });

  it('streams progress lines when asked for NDJSON', async () => {
    const exported = await exportText(host);
    const response = await fetchWithCA(`${host.url}/sandbox/v1/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: exported,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const last = lines.at(-1);
    expect(last).toMatchObject({ done: true, settings: { profile: 'orch' } });
    const progress = lines.filter((line) => 'totalRows' in line);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatchObject({ completedRows: progress.at(-1)?.['totalRows'] });
  });

  it('refuses what is not a state export, or one of the other profile, changing nothing', async () => {
    const before = (await host.request('GET', '/sandbox/v1/settings')).body.revision as number;
    for (const body of ['{"hello":"world"}', 'not json']) {
      const answer = await host.request('POST', '/sandbox/v1/import', { body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    }
    const document = JSON.parse(await exportText(host)) as {
      data: { data: { tableName: string; rows: { name?: string; value?: unknown }[] }[] };
    };
    const settings = document.data.data.find((t) => t.tableName === 'settings');
    const profileRow = settings?.rows.find((row) => row.name === 'sandbox.profile');
    expect(profileRow).toBeDefined();
    if (profileRow) profileRow.value = 'kubernetes';
    const foreign = await host.request('POST', '/sandbox/v1/import', { body: JSON.stringify(document) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toContain('kubernetes profile');
    expect((await host.request('GET', '/sandbox/v1/settings')).body.revision).toBe(before);
  });

  it('a state exported from the memory store imports into a Dexie-backed host', async () => {
    const dexieHost = await startTestHost({ storage: 'dexie' });
    try {
      const exported = await exportText(host);
      const imported = await dexieHost.request('POST', '/sandbox/v1/import', { body: exported });
      expect(imported.status, imported.text).toBe(200);
      expect((await dexieHost.request('GET', `${CONFIGMAPS}/kept`)).body.data).toEqual({ from: 'kept' });
      const back = await host.request('POST', '/sandbox/v1/import', { body: await exportText(dexieHost) });
      expect(back.status, back.text).toBe(200);
    } finally {
      await dexieHost.close();
    }
  });
});
