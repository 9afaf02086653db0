/**
 * In-process API servers with the sandbox API open and no controllers, over a
 * store the test hands in (several servers over one store stand for replicas
 * or a restart), each closed after its test: the identity-key scenarios
 * (sandbox-oidc-issuer-key, service-account-key-on-first-use) start them.
 */

import { afterEach } from 'vitest';
import { createApiServer, type ApiServer } from '../../src/server/index';
import type { Storage } from '../../src/storage/types';

const servers: ApiServer[] = [];
afterEach(closeSandboxServers);

/** Closes every server started so far (a restart within a test, and after each test). */
export async function closeSandboxServers(): Promise<void> {
  for (const s of servers.splice(0)) await s.close();
}

/** A server over `storage`, once ready; closed after the current test. */
export async function startSandboxServer(storage: Storage): Promise<ApiServer> {
  const api = createApiServer({ storage, profile: 'orch', openSandboxApi: true, controllers: false });
  servers.push(api);
  await api.ready;
  return api;
}
