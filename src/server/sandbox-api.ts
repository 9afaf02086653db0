/**
 * The sandbox's own control endpoints, outside the cluster API, so that the
 * UI (and workshop scripts) change server settings over HTTP like any other
 * request:
 * - `GET/PUT /sandbox/v1/settings`: the history window (compaction
 *   interval), feature gates and the profile in use;
 * - `POST /sandbox/v1/compact`: compact the change history now;
 * - `POST /sandbox/v1/reset`: back to a clean cluster — every object is
 *   deleted (watchers see DELETED events; revisions keep increasing), the
 *   history is compacted, and the initial namespaces are created again.
 */

import { badRequest, pathNotFound, methodNotAllowed } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import type { RequestContext } from '../http/context';
import { readBodyText } from '../http/body';
import { respondValue } from '../http/respond';
import type { Storage } from '../storage/types';
import { StorageError } from '../storage/types';

export interface SandboxSettings {
  compactionIntervalMs: number;
  featureGates: Record<string, boolean>;
}

export interface SandboxControl {
  settings(): SandboxSettings & { profile: string };
  update(patch: Partial<SandboxSettings>): Promise<void>;
  compact(): Promise<number>;
  reset(): Promise<void>;
}

const knownGates = new Set(['WatchList', 'APIListChunking']);

export async function handleSandbox(control: SandboxControl, storage: Storage, ctx: RequestContext): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const method = ctx.request.method.toUpperCase();
  const snapshot = async () => ({ ...control.settings(), revision: await storage.currentRevision(), compactedRevision: await storage.compactedRevision() });
  if (path === '/sandbox/v1/settings') {
    if (method === 'GET') return respondValue(ctx, 200, await snapshot());
    if (method !== 'PUT' && method !== 'PATCH') throw methodNotAllowed();
    let body: unknown;
    try {
      body = JSON.parse(await readBodyText(ctx.request));
    } catch {
      throw badRequest('settings must be a JSON object');
    }
    if (!isPlainObject(body)) throw badRequest('settings must be a JSON object');
    const patch: Partial<SandboxSettings> = {};
    if (body.compactionIntervalMs !== undefined) {
      const ms = body.compactionIntervalMs;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1000) throw badRequest('compactionIntervalMs must be a number of milliseconds, at least 1000');
      patch.compactionIntervalMs = ms;
    }
    if (body.featureGates !== undefined) {
      if (!isPlainObject(body.featureGates)) throw badRequest('featureGates must be an object of booleans');
      const gates: Record<string, boolean> = {};
      for (const [k, v] of Object.entries(body.featureGates)) {
        if (!knownGates.has(k)) throw badRequest(`unrecognized feature gate: ${k}`);
        if (typeof v !== 'boolean') throw badRequest(`feature gate ${k} must be true or false`);
        gates[k] = v;
      }
      patch.featureGates = gates;
    }
    await control.update(patch);
    return respondValue(ctx, 200, await snapshot());
  }
  if (path === '/sandbox/v1/compact') {
    if (method !== 'POST') throw methodNotAllowed();
    const revision = await control.compact();
    return respondValue(ctx, 200, { compactedRevision: revision });
  }
  if (path === '/sandbox/v1/reset') {
    if (method !== 'POST') throw methodNotAllowed();
    await control.reset();
    return respondValue(ctx, 200, await snapshot());
  }
  throw pathNotFound();
}

/** Deletes every stored object (each a normal change the watchers see). */
export async function deleteEverything(storage: Storage): Promise<void> {
  for (;;) {
    const page = await storage.list({ prefix: '/', limit: 500 });
    if (page.items.length === 0) return;
    for (const item of page.items) {
      try {
        await storage.delete(item.key, item.revision);
      } catch (e) {
        if (!(e instanceof StorageError)) throw e;
      }
    }
  }
}
