/**
 * Test support for the bootstrap token controllers: an in-process API
 * server (no controllers of its own, no published cluster-info) with an
 * administrator client, a clock the test moves, and a bootstrap token
 * Secret builder. Used by the controllers' unit tests.
 */

import type { KubeObject } from '../../src/api/meta';
import { createClient, type ApiClient } from '../../src/client/client';
import { namingProfile, type NamingProfile } from '../../src/machinery/naming';
import { createApiServer, type ApiServer } from '../../src/server/index';
import { createMemoryStorage } from '../../src/storage/memory/memory-storage';
import type { ControllerContext } from '../../src/controllers/types';

export interface Harness {
  api: ApiServer;
  client: ApiClient;
  profile: NamingProfile;
  /** The controllers' clock: the real time plus `shift` milliseconds. */
  clock: { shift: number; now(): Date };
  context(): ControllerContext;
}

export async function startHarness(): Promise<Harness> {
  const profile = namingProfile('orch');
  const token = 'bootstrap-token-controller-tests';
  const api = createApiServer({ storage: createMemoryStorage(), controllers: false, adminTokens: [token] });
  await api.ready;
  const client = createClient({
    baseUrl: 'https://orch.test',
    fetch: (request) => api.fetch(request),
    headers: { authorization: `Bearer ${token}` },
  });
  const clock = {
    shift: 0,
    now(): Date {
      return new Date(Date.now() + this.shift);
    },
  };
  return {
    api,
    client,
    profile,
    clock,
    context: () => ({
      client,
      profile,
      now: () => clock.now(),
      clock: {
        now: () => clock.now(),
        setTimer: (ms, fn) => {
          const handle = setTimeout(fn, ms);
          return () => clearTimeout(handle);
        },
      },
    }),
  };
}

/** A bootstrap token Secret `bootstrap-token-<id>` with `data` from `fields` (base64 as stored). */
export function tokenSecret(
  profile: NamingProfile,
  id: string,
  secret: string,
  fields: Record<string, string>,
  type = profile.subPrefixed('bootstrap', 'token'),
): KubeObject {
  const data = Object.fromEntries(
    Object.entries({ 'token-id': id, 'token-secret': secret, ...fields }).map(([k, v]) => [k, btoa(v)]),
  );
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: profile.systemNamespace },
    type,
    data,
  };
}

/** Polls `check` until it returns a value (the controllers act asynchronously). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
