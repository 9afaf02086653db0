/**
 * Starting every attendee from the same state: reset the sandbox, apply
 * the scenario's settings, then create its objects in an order that works —
 * namespaces first, then custom resource definitions (after which discovery
 * is read again, so their custom resources can be created), then the rest.
 * Objects with a manager are applied as that manager, so a scenario can
 * hand out ownership for the apply lab. A whole exported state is imported
 * instead, with the server's progress lines.
 */

import type { KubeObject } from '../../api/meta';
import {
  errorFromResponse,
  resourcePath,
  type ApiClient,
  type DiscoveredGroupVersion,
} from '../../client/index';
import { collectionFor } from '../lib/manifest';
import type { ScenarioObject, WorkshopScenario } from './scenario-file';

export type Progress = (done: number, total: number, label: string) => void;

export async function loadScenario(
  client: ApiClient,
  scenario: WorkshopScenario,
  progress: Progress,
): Promise<void> {
  const total = scenario.objects.length + 1;
  progress(0, total, 'Resetting the sandbox');
  await client.send('POST', '/sandbox/v1/reset');
  if (scenario.settings !== undefined)
    await client.send('PUT', '/sandbox/v1/settings', { body: scenario.settings });
  const rank = (o: ScenarioObject) =>
    o.object.kind === 'Namespace' ? 0 : o.object.kind === 'CustomResourceDefinition' ? 1 : 2;
  const ordered = [...scenario.objects].sort((a, b) => rank(a) - rank(b));
  let groupVersions: DiscoveredGroupVersion[] = (await client.discovery()).groupVersions;
  let done = 1;
  let crdsCreated = false;
  for (const item of ordered) {
    if (rank(item) === 2 && crdsCreated) {
      groupVersions = await discoverWhenServed(client, item.object);
      crdsCreated = false;
    }
    progress(done, total, `Creating ${item.object.kind} ${item.object.metadata?.name ?? ''}`);
    await createOne(client, groupVersions, item);
    if (item.object.kind === 'CustomResourceDefinition') crdsCreated = true;
    progress(++done, total, 'Created');
  }
}

async function createOne(
  client: ApiClient,
  groupVersions: DiscoveredGroupVersion[],
  item: ScenarioObject,
): Promise<void> {
  const collection = collectionFor(item.object, groupVersions, 'default');
  if (item.manager === undefined) {
    await client.send('POST', resourcePath(collection), {
      body: item.object,
      query: { fieldManager: 'workshop' },
    });
    return;
  }
  const name = item.object.metadata?.name ?? '';
  await client.send('PATCH', resourcePath({ ...collection, name }), {
    body: JSON.stringify(item.object),
    contentType: 'application/apply-patch+yaml',
    query: { fieldManager: item.manager, force: true },
  });
}

/** Discovery once the object's apiVersion is served (a new CRD takes a moment), at most a few seconds. */
async function discoverWhenServed(client: ApiClient, object: KubeObject): Promise<DiscoveredGroupVersion[]> {
  for (let attempt = 0; ; attempt++) {
    const groupVersions = (await client.discovery()).groupVersions;
    if (groupVersions.some((gv) => gv.groupVersion === object.apiVersion) || attempt >= 20)
      return groupVersions;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Imports an exported state, reporting the server's progress lines. Returns the settings after the import. */
export async function importState(
  client: ApiClient,
  text: string,
  progress: Progress,
): Promise<Record<string, unknown>> {
  progress(0, 0, 'Sending the state');
  const response = await client.raw('POST', '/sandbox/v1/import', {
    body: text,
    headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
  });
  if (!response.ok || response.body === null) throw await errorFromResponse(response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = JSON.parse(buffered.slice(0, newline)) as {
        completedRows?: number;
        totalRows?: number;
        done?: boolean;
        settings?: Record<string, unknown>;
        error?: { message?: string };
      };
      buffered = buffered.slice(newline + 1);
      if (line.error !== undefined) throw new Error(line.error.message ?? 'the import failed');
      if (line.done === true) return line.settings ?? {};
      if (line.totalRows !== undefined) progress(line.completedRows ?? 0, line.totalRows, 'Importing rows');
      newline = buffered.indexOf('\n');
    }
  }
  throw new Error('The import ended without a result.');
}
