/**
 * The sandbox's own control endpoints, outside the cluster API, so that the
 * UI (and workshop scripts) change server settings over HTTP like any other
 * request:
 * - `GET/PUT /sandbox/v1/settings`: the history window (compaction
 *   interval), feature gates, the runtime config (which API versions are
 *   served), admission, audit, the profile in use, and the simulated
 *   cluster (`simulation`: node count, capacity, labels, speed);
 * - `POST /sandbox/v1/compact`: compact the change history now;
 * - `POST /sandbox/v1/restart-watch-cache`: start every watch cache again at
 *   the current revision, as a server restart does, so a watch from an
 *   earlier resourceVersion answers 410 (compaction alone does not);
 * - `POST /sandbox/v1/reset`: back to a clean cluster — every object is
 *   deleted (watchers see DELETED events; revisions keep increasing), the
 *   history is compacted, and the initial namespaces are created again.
 * - `GET /sandbox/v1/export`: the whole state (objects, history, revision
 *   counters, settings) as a file download in Dexie's export format;
 * - `POST /sandbox/v1/import`: replaces the whole state with such a file.
 *   Open watches end with a 410 ERROR event, so clients relist. With
 *   `Accept: application/x-ndjson` the answer streams progress lines
 *   (`{"completedRows","totalRows"}`) and ends with `{"done":true,...}` or
 *   `{"error":<Status>}`, for a progress bar on a large state.
 */

import { badRequest, pathNotFound, methodNotAllowed } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import { checkFeatureGates, FeatureGateError } from '../machinery/feature-gates';
import type { AdmissionPluginState, AdmissionSettings } from './admission-settings';
import type { RequestContext } from '../http/context';
import { readBodyText } from '../http/body';
import { respondValue } from '../http/respond';
import type { Storage, ImportProgress } from '../storage/types';
import { StorageError } from '../storage/types';
import { parseExport } from '../storage/export-format';
import { parseRuntimeConfig } from '../registry/runtime-config';
import { baseHeaders } from '../http/respond';
import { toStatusError } from '../machinery/errors';
import { isProfileName, namingProfile, type ProfileName } from '../machinery/naming';
import { goOrderFor } from '../registry/encoding/go-json';
import type { SimulationSettings } from '../simulation/settings';

export interface SandboxSettings {
  compactionIntervalMs: number;
  featureGates: Record<string, boolean>;
  /**
   * `--runtime-config` entries set from the workshop (`api/alpha=true`, `<group>/<version>=false`, …); the
   * host's own `--runtime-config` wins where both name a key. Changing it (or a gate that installs resources)
   * serves or stops serving those group/versions at once.
   */
  runtimeConfig: string;
  /** Admission plugins and their configuration (see admission-settings.ts). */
  admission: AdmissionSettings;
  /** The audit policy document; '' audits nothing. */
  auditPolicy: string;
  /** The simulated cluster's settings (absent when the server runs without a simulation). */
  simulation?: SimulationSettings;
}

export interface SandboxControl {
  settings(): SandboxSettings & { profile: string; admissionPlugins: AdmissionPluginState[] };
  update(patch: Partial<SandboxSettings>): Promise<void>;
  compact(): Promise<number>;
  /** Starts the watch caches again at the current revision (what a server restart does); returns that revision. */
  restartWatchCache(): Promise<number>;
  reset(): Promise<void>;
  /** Replaces the state with an export (already validated), ends open watches and re-reads the saved settings. */
  importState(data: Blob, onProgress?: (progress: ImportProgress) => void): Promise<void>;
}

/** The storage setting naming the profile whose state a store holds, so an export never lands in the other profile. */
export const profileSetting = 'sandbox.profile';

/** Largest state file an import reads (the API's 3 MiB body limit is for objects, not whole states). */
const maxImportBytes = 256 * 1024 * 1024;

export async function handleSandbox(
  control: SandboxControl,
  storage: Storage,
  ctx: RequestContext,
): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const method = ctx.request.method.toUpperCase();
  const snapshot = async () => ({
    ...control.settings(),
    revision: await storage.currentRevision(),
    compactedRevision: await storage.compactedRevision(),
  });
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
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 1000)
        throw badRequest('compactionIntervalMs must be a number of milliseconds, at least 1000');
      patch.compactionIntervalMs = ms;
    }
    if (body.featureGates !== undefined) {
      if (!isPlainObject(body.featureGates)) throw badRequest('featureGates must be an object of booleans');
      const gates: Record<string, boolean> = {};
      for (const [k, v] of Object.entries(body.featureGates)) {
        if (typeof v !== 'boolean') throw badRequest(`feature gate ${k} must be true or false`);
        gates[k] = v;
      }
      // The real gate's refusals: an unknown gate, a locked GA gate moved off its default.
      try {
        checkFeatureGates(Object.entries(gates));
      } catch (e) {
        if (e instanceof FeatureGateError) throw badRequest(e.message);
        throw e;
      }
      patch.featureGates = gates;
    }
    if (body.runtimeConfig !== undefined) {
      if (typeof body.runtimeConfig !== 'string')
        throw badRequest(
          'runtimeConfig must be text: <group>/<version>[=true|false] entries separated by commas',
        );
      // The flag's own refusals (a value that is not a Go bool, a key with too many parts), as a 400.
      parseRuntimeConfig(body.runtimeConfig);
      patch.runtimeConfig = body.runtimeConfig.trim();
    }
    if (body.admission !== undefined) {
      const a = body.admission;
      const list = (v: unknown, field: string): string[] => {
        if (v === undefined) return [];
        if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
          throw badRequest(`admission.${field} must be a list of plugin names`);
        return v as string[];
      };
      if (!isPlainObject(a))
        throw badRequest('admission must be an object: {enablePlugins, disablePlugins, configuration}');
      if (a.configuration !== undefined && typeof a.configuration !== 'string')
        throw badRequest('admission.configuration must be an AdmissionConfiguration document (text)');
      patch.admission = {
        enablePlugins: list(a.enablePlugins, 'enablePlugins'),
        disablePlugins: list(a.disablePlugins, 'disablePlugins'),
        configuration: typeof a.configuration === 'string' ? a.configuration : '',
      };
    }
    if (body.auditPolicy !== undefined) {
      if (typeof body.auditPolicy !== 'string')
        throw badRequest('auditPolicy must be a Policy document (text)');
      patch.auditPolicy = body.auditPolicy;
    }
    if (body.simulation !== undefined) {
      if (!isPlainObject(body.simulation))
        throw badRequest('simulation must be an object: {nodes, capacity, labels, speed}');
      // Checked against the current settings by update (a 400 names what is wrong).
      patch.simulation = body.simulation as unknown as SimulationSettings;
    }
    await control.update(patch);
    return respondValue(ctx, 200, await snapshot());
  }
  if (path === '/sandbox/v1/compact') {
    if (method !== 'POST') throw methodNotAllowed();
    const revision = await control.compact();
    return respondValue(ctx, 200, { compactedRevision: revision });
  }
  if (path === '/sandbox/v1/restart-watch-cache') {
    if (method !== 'POST') throw methodNotAllowed();
    return respondValue(ctx, 200, { watchCacheStart: await control.restartWatchCache() });
  }
  if (path === '/sandbox/v1/reset') {
    if (method !== 'POST') throw methodNotAllowed();
    await control.reset();
    return respondValue(ctx, 200, await snapshot());
  }
  if (path === '/sandbox/v1/export') {
    if (method !== 'GET') throw methodNotAllowed();
    const [stored, revision] = await Promise.all([storage.exportState(), storage.currentRevision()]);
    const profileName = control.settings().profile;
    const data = isProfileName(profileName) ? await inGoOrder(stored, profileName) : stored;
    const headers = baseHeaders(ctx, 'application/json');
    headers.set(
      'Content-Disposition',
      `attachment; filename="orch-sandbox-${control.settings().profile}-rv${revision}.json"`,
    );
    return new Response(data, { status: 200, headers });
  }
  if (path === '/sandbox/v1/import') {
    if (method !== 'POST') throw methodNotAllowed();
    const data = await readImport(ctx.request, control.settings().profile);
    if (!(ctx.request.headers.get('accept') ?? '').includes('application/x-ndjson')) {
      await control.importState(data);
      return respondValue(ctx, 200, await snapshot());
    }
    return importWithProgress(ctx, data, control, snapshot);
  }
  throw pathNotFound();
}

/**
 * The export with its objects' fields in Go's order, as every answer writes them (a custom resource's keys
 * sorted). Only the order: the zero values Go writes are not added, so an import stores exactly what was stored.
 */
async function inGoOrder(exported: Blob, profile: ProfileName): Promise<string> {
  const order = goOrderFor(namingProfile(profile));
  const document = JSON.parse(await exported.text()) as {
    data?: { data?: { tableName?: string; rows?: { object?: unknown; previous?: unknown }[] }[] };
  };
  for (const table of document.data?.data ?? []) {
    if (table.tableName !== 'objects' && table.tableName !== 'changes') continue;
    for (const row of table.rows ?? []) {
      if (row.object !== undefined) row.object = order.shape(row.object);
      if (row.previous !== undefined) row.previous = order.shape(row.previous);
    }
  }
  return JSON.stringify(document);
}

/** The request body as a validated state export of this server's profile (400 otherwise). */
async function readImport(request: Request, profile: string): Promise<Blob> {
  const declared = Number(request.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > maxImportBytes)
    throw badRequest(`a state file may have at most ${maxImportBytes} bytes`);
  const text = await request.text();
  let settings: Map<string, unknown>;
  try {
    settings = parseExport(text).settings;
  } catch (e) {
    if (e instanceof StorageError) throw badRequest(e.message);
    throw e;
  }
  const from = settings.get(profileSetting);
  if (typeof from === 'string' && from !== profile)
    throw badRequest(
      `this state was exported from the ${from} profile; switch the sandbox to that profile to import it`,
    );
  return new Blob([text], { type: 'application/json' });
}

function importWithProgress(
  ctx: RequestContext,
  data: Blob,
  control: SandboxControl,
  snapshot: () => Promise<unknown>,
): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const line = (value: unknown): void => controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
      control
        .importState(data, (progress) => line(progress))
        .then(async () => line({ done: true, settings: await snapshot() }))
        .catch((e: unknown) => line({ error: toStatusError(e).status }))
        .finally(() => controller.close());
    },
  });
  return new Response(body, { status: 200, headers: baseHeaders(ctx, 'application/x-ndjson') });
}

/**
 * Deletes every stored object (each a normal change the watchers see). The server's own controllers put
 * back what they keep (the APF configuration, APIServices, the `kubernetes` Service) as soon as it goes, so
 * on a slow store the collection is never empty: a few passes delete what is there, and whatever the
 * controllers wrote back after the last pass is theirs (the start-up set the reset restores anyway).
 */
export async function deleteEverything(storage: Storage, maxPasses = 4): Promise<void> {
  for (let pass = 0; pass < maxPasses; pass++) {
    let deleted = 0;
    let after: string | undefined;
    for (;;) {
      const page = await storage.list({ prefix: '/', limit: 500, ...(after !== undefined ? { after } : {}) });
      for (const item of page.items) {
        try {
          await storage.delete(item.key);
          deleted++;
        } catch (e) {
          if (!(e instanceof StorageError)) throw e;
        }
      }
      if (!page.more || page.items.length === 0) break;
      after = page.items[page.items.length - 1]?.key;
    }
    if (deleted === 0) return;
  }
}
