/**
 * A new store's start-up objects (decision 0109): on a Dexie store the host's
 * own open created, the initial namespaces and the sandbox's service account
 * are written without the create path, and must be what the create path
 * makes (a memory store's start, which takes no store for new): the same
 * objects, fields in the same order, the same resourceVersions, and the watch
 * caches starting at the same revision. Where admission could refuse them
 * (AlwaysDeny) a new store still goes through admission, which refuses them as
 * before. A host started again on the same database keeps what it made.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namingProfile, type ProfileName } from '../src/machinery/naming';
import { sandboxServiceAccount } from '../src/server/identity';
import { startTestHost, type TestHost } from './support/host';
import { openWatch } from './support/watch';

/**
 * The objects' JSON text with what differs from one start to the next masked: uid, time, and the
 * resourceVersion, since the create path writes the namespaces side by side and the order in which they commit
 * (so which takes which revision) is not fixed; the revisions are compared as a set below.
 */
const masked = (body: unknown): string =>
  JSON.stringify(body)
    .replace(/"uid":"[^"]+"/g, '"uid":"<uid>"')
    .replace(/"creationTimestamp":"[^"]+"/g, '"creationTimestamp":"<time>"')
    .replace(/"resourceVersion":"[^"]+"/g, '"resourceVersion":"<rv>"');

describe.each<ProfileName>(['orch', 'kubernetes'])('a new store’s start-up objects (%s profile)', (name) => {
  const profile = namingProfile(name);
  const paths = [
    ...profile.initialNamespaces.map((ns) => `/api/v1/namespaces/${ns}`),
    `/api/v1/namespaces/${sandboxServiceAccount.namespace}/serviceaccounts/${sandboxServiceAccount.name}`,
  ];
  let created: TestHost;
  let memory: TestHost;
  beforeAll(async () => {
    [created, memory] = await Promise.all([
      startTestHost({ profile: name, storage: 'dexie' }),
      startTestHost({ profile: name, storage: 'memory' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([created.close(), memory.close()]);
  });

  it('are the objects the create path makes, at the same resourceVersions', async () => {
    for (const path of paths) {
      const [direct, through] = await Promise.all([
        created.request('GET', path),
        memory.request('GET', path),
      ]);
      expect(direct.status, direct.text).toBe(200);
      expect(through.status, through.text).toBe(200);
      expect(masked(direct.body), path).toBe(masked(through.body));
    }
    const revisions = (host: TestHost) =>
      Promise.all(
        paths.map(async (path) => Number((await host.request('GET', path)).body.metadata.resourceVersion)),
      );
    // Stored first, in order: one revision each, from 1.
    expect(await revisions(created)).toEqual(paths.map((_, i) => i + 1));
    // The create path takes the same revisions, the namespaces in whichever order they committed.
    expect([...(await revisions(memory))].sort((a, b) => a - b)).toEqual(paths.map((_, i) => i + 1));
  });

  it('are where the watch caches start, as on a store written through the create path', async () => {
    const messages = await Promise.all(
      [created, memory].map(async (host) => {
        const watch = await openWatch(host.url, '/api/v1/namespaces?watch=true&resourceVersion=1');
        const [event] = await watch.waitFor(1);
        watch.abort();
        expect(event?.type).toBe('ERROR');
        return event?.object.message as string;
      }),
    );
    expect(messages[0]).toBe(`too old resource version: 1 (${paths.length})`);
    expect(messages[0]).toBe(messages[1]);
  });
});

describe('a new store whose admission refuses the start-up objects (AlwaysDeny)', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({
      storage: 'dexie',
      admission: { enablePlugins: ['AlwaysDeny'], disablePlugins: [] },
    });
  });
  afterAll(() => host.close());

  it('goes through admission: nothing is made, and readyz names the hooks left unfinished', async () => {
    expect((await host.request('GET', '/api/v1/namespaces/default')).status).toBe(404);
    const r = await host.request('GET', '/readyz?verbose');
    expect(r.status).toBe(500);
    expect(r.text).toContain('[-]poststarthook/rbac/bootstrap-roles failed: reason withheld');
  });
});

describe('a Dexie store opened again', () => {
  it('is not new: its start-up objects stay as they were', async () => {
    const database = `fresh-store-start-${process.pid}`;
    const path = `/api/v1/namespaces/${sandboxServiceAccount.namespace}/serviceaccounts/${sandboxServiceAccount.name}`;
    const first = await startTestHost({ storage: 'dexie', dexieDatabase: database });
    const before = (await first.request('GET', path)).body;
    await first.close();
    const second = await startTestHost({ storage: 'dexie', dexieDatabase: database });
    try {
      const after = await second.request('GET', path);
      expect(after.status).toBe(200);
      expect(after.body.metadata.uid).toBe(before.metadata.uid);
      expect(after.body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    } finally {
      await second.close();
    }
  });
});
