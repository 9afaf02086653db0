/**
 * The composition root and the only server entry point: `createApiServer`
 * builds the whole API server around a storage backend and returns one
 * Web-standard `fetch` function. Hosts (service worker, Node) are thin
 * adapters around it.
 */

import type { UserInfo } from '../api/authn';
import { namingProfile, type NamingProfile } from '../machinery/naming';
import { StatusError, pathNotFound } from '../machinery/errors';
import { AdmissionChain } from '../admission/chain';
import { namespaceLifecycle } from '../admission/plugins/namespace-lifecycle';
import { Catalog } from '../registry/catalog';
import { builtInDefinitions, builtInRegistry } from '../registry/builtins';
import { ObjectStore } from '../registry/object-store';
import { parseRuntimeConfig } from '../registry/runtime-config';
import type { ResourceType } from '../registry/resource-type';
import { ContinueTokens } from '../http/continue-token';
import type { HealthCheck, ServerContext } from '../http/server-context';
import { storageVersionHash } from '../http/discovery';
import { handleRequest, runWrite, type PipelineDeps } from './pipeline';
import type { ApiServerOptions } from './options';
import { Metrics } from './metrics';
import { bootstrap } from './bootstrap';

export type { ApiServerOptions } from './options';

export interface ApiServer {
  /** Answers one HTTP request. Never rejects: failures become Status responses. */
  fetch(request: Request): Promise<Response>;
  /** Resolves once the server can serve (initial namespaces exist). */
  readonly ready: Promise<void>;
  readonly profile: NamingProfile;
  /** Stops timers and open watches and closes the storage. */
  close(): Promise<void>;
}

const systemAdmin: UserInfo = { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

export function createApiServer(options: ApiServerOptions): ApiServer {
  const profile = namingProfile(options.profile);
  const now = options.now ?? (() => new Date());
  const storage = options.storage;
  const catalog = new Catalog(profile, builtInDefinitions);
  catalog.loadBuiltIns(builtInRegistry, parseRuntimeConfig(options.runtimeConfig));
  const store = new ObjectStore(storage);
  const shutdownCallbacks = new Set<() => void>();
  const metrics = new Metrics();
  let started = false;
  let tokens: ContinueTokens | undefined;
  let hashes: { generation: number; map: Map<ResourceType, string> } | undefined;

  const namespaces = {
    get: async (name: string) => {
      const rt = catalog.lookup('', 'v1', 'namespaces');
      return rt === undefined ? undefined : (await store.get(rt, '', name))?.object;
    },
  };
  const admission = new AdmissionChain([namespaceLifecycle({ namespaces, immortal: ['default', profile.systemNamespace, profile.publicNamespace] })], []);

  const healthChecks: HealthCheck[] = [
    { name: 'ping', ok: () => true },
    { name: 'log', ok: () => true },
    { name: 'storage', ok: () => started },
  ];

  const server: ServerContext = {
    profile,
    catalog,
    store,
    storage,
    now,
    strategy: (at) => ({ now: at, definitions: catalog.definitions, namespaceFinalizer: profile.namespaceFinalizer }),
    runWrite: (w) => runWrite(deps, w),
    get continueTokens(): ContinueTokens {
      if (tokens === undefined) throw new StatusError(503, 'ServiceUnavailable', 'the server is starting');
      return tokens;
    },
    tooLargeResourceVersionWaitMs: 3000,
    featureGates: { APIListChunking: true, WatchList: false, ...options.featureGates },
    bookmarkIntervalMs: 60_000,
    onShutdown(callback) {
      shutdownCallbacks.add(callback);
      return () => shutdownCallbacks.delete(callback);
    },
    async storageVersionHashes() {
      if (hashes?.generation !== catalog.generation) {
        const map = new Map<ResourceType, string>();
        for (const g of catalog.groups())
          for (const v of g.versions)
            for (const rt of v.resources.values()) {
              const storageVersion = catalog.preferred(rt.group, rt.resource) ?? rt;
              map.set(rt, await storageVersionHash(storageVersion.group, storageVersion.version, storageVersion.kind));
            }
        hashes = { generation: catalog.generation, map };
      }
      return hashes.map;
    },
    healthChecks: () => healthChecks,
    metricsText: async () => metrics.text(),
    openapi: async () => {
      throw pathNotFound();
    },
  };

  const deps: PipelineDeps = {
    server,
    admission,
    authenticate: async () => systemAdmin,
    authorize: async () => undefined,
  };

  const ready = (async () => {
    let secret = await storage.getSetting<number[]>('continueTokenKey');
    if (secret === undefined) {
      secret = Array.from(crypto.getRandomValues(new Uint8Array(32)));
      await storage.setSetting('continueTokenKey', secret);
    }
    tokens = await ContinueTokens.create(new Uint8Array(secret));
    await bootstrap(server, systemAdmin);
    started = true;
  })();
  ready.catch(() => undefined);

  return {
    profile,
    ready,
    async fetch(request: Request): Promise<Response> {
      await ready;
      const response = await handleRequest(deps, request);
      const info = new URL(request.url).pathname;
      metrics.recordRequest({ verb: request.method, group: '', version: '', resource: info.split('/')[3] ?? '', subresource: '', scope: '', code: response.status });
      return response;
    },
    async close() {
      for (const cb of [...shutdownCallbacks]) cb();
      shutdownCallbacks.clear();
      await ready.catch(() => undefined);
      await storage.close();
    },
  };
}
