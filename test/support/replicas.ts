/**
 * Several API server replicas over one shared store, in one process, for the
 * replica tests and the bench: each replica is a whole `createApiServer` with
 * its own caches, watches and controllers, and its own handle on the store —
 * a view of one in-process memory store (closing a view unsubscribes only that
 * replica, as a process that dies drops its own connection), or its own etcd
 * client on a shared throwaway etcd member. A `balancer` fetch sends each
 * request to the first live replica of a list, as a load balancer in front of
 * the replicas would after a health check fails.
 */

import { createClient, type ApiClient, type FetchFunction } from '../../src/client/client';
import { createApiServer, type ApiServer, type ApiServerOptions } from '../../src/server/index';
import { createMemoryStorage } from '../../src/storage/memory/memory-storage';
import type { CommitListener, Storage } from '../../src/storage/types';
import { etcdSkipReason, startEtcd, type EtcdMember } from './etcd';

/** Where the replicas' state lives, shared by all of them. */
export interface SharedStore {
  name: string;
  /** A new handle on the shared state for one replica. */
  connect(): Promise<Storage>;
  /** Stops what the store itself holds (the etcd member); replicas are closed first. */
  close(): Promise<void>;
}

/** A view of `storage` whose close() drops this view's commit listeners and leaves the store open. */
function viewOf(storage: Storage): Storage {
  const unsubscribes = new Set<() => void>();
  const overrides: Partial<Storage> = {
    onCommit(listener: CommitListener): () => void {
      const off = storage.onCommit(listener);
      unsubscribes.add(off);
      return () => {
        unsubscribes.delete(off);
        off();
      };
    },
    async close(): Promise<void> {
      for (const off of unsubscribes) off();
      unsubscribes.clear();
    },
  };
  return new Proxy(storage, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Storage];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export function memoryStore(): SharedStore {
  const storage = createMemoryStorage();
  return {
    name: 'memory',
    connect: async () => viewOf(storage),
    close: () => storage.close(),
  };
}

/** Why the etcd store cannot be used here (undefined: it can). */
export const etcdStoreSkipReason = (): string | undefined => etcdSkipReason();

export async function etcdStore(): Promise<SharedStore> {
  const member: EtcdMember = await startEtcd();
  // Imported late so that a tree without the etcd backend's client still runs the memory tests.
  const { createEtcdStorage } = await import('../../src/hosts/node/etcd/etcd-storage');
  return {
    name: 'etcd',
    connect: () => createEtcdStorage({ servers: [member.url] }),
    close: () => member.stop(),
  };
}

export interface Replica {
  name: string;
  api: ApiServer;
  /** An administrator client of this replica alone. */
  client: ApiClient;
  alive: boolean;
  /** Stops the replica (its watches end, its controllers stop, its store handle closes). */
  kill(): Promise<void>;
}

export const adminToken = 'replica-tests-admin-token';

/**
 * Starts replicas one after the other, or all at once with `together` (as processes started by one script race
 * to create the shared keys and the bootstrap objects).
 */
export async function startReplicas(
  store: SharedStore,
  names: string[],
  options: (name: string) => Partial<ApiServerOptions> = () => ({}),
  together = false,
): Promise<Replica[]> {
  const start = async (name: string): Promise<Replica> => {
    const api = createApiServer({
      storage: await store.connect(),
      adminTokens: [adminToken],
      ...options(name),
    });
    await api.ready;
    const replica: Replica = {
      name,
      api,
      client: clientOf((request) => api.fetch(request)),
      alive: true,
      async kill() {
        if (!replica.alive) return;
        replica.alive = false;
        await api.close();
      },
    };
    return replica;
  };
  if (together) return Promise.all(names.map(start));
  const replicas: Replica[] = [];
  for (const name of names) replicas.push(await start(name));
  return replicas;
}

export function clientOf(fetch: FetchFunction): ApiClient {
  return createClient({
    baseUrl: 'https://replicas.test',
    fetch,
    headers: { authorization: `Bearer ${adminToken}` },
  });
}

/** Sends each request to the first live replica of `order`, as a load balancer after its health checks. */
export function balancer(order: Replica[]): FetchFunction {
  return (request) => {
    const target = order.find((r) => r.alive);
    // As a connection refused: the list-watch loop treats a TypeError as an unreachable server.
    if (target === undefined) return Promise.reject(new TypeError('no replica is reachable'));
    return target.api.fetch(request);
  };
}
