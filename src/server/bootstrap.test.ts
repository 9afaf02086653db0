// The start's namespaces and sandbox service account, with and without an informer's word on what exists: the
// same objects through the same create path, none lost or doubled when the informer is behind the store or
// still holds what the store lost; and a new store's direct path (createFreshStartupObjects), which must store
// exactly what the create path stores.
import { beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/meta';
import { allowAll } from '../auth/authorizer';
import { StaticTokens } from '../auth/authn/static-tokens';
import type { Lister } from '../machinery/lister';
import { namingProfile, type NamingProfile } from '../machinery/naming';
import { builtInDefinitions, builtInRegistry } from '../registry/builtins';
import { Catalog } from '../registry/catalog';
import { profileDefinitions } from '../registry/crd/definitions';
import { RestInstaller } from '../registry/installer';
import { parseRuntimeConfig } from '../registry/runtime-config';
import { createMemoryStorage } from '../storage/memory/memory-storage';
import type { StoredObject } from '../storage/types';
import {
  bootstrap,
  createFreshStartupObjects,
  ensureSandboxServiceAccount,
  type CachedResource,
} from './bootstrap';

let profile: NamingProfile = namingProfile('orch');
const user = { username: 'system:apiserver', groups: ['system:masters'] };
const now = new Date('2026-01-02T03:04:05Z');
const account = { namespace: 'default', name: 'sandbox' };
let installer: RestInstaller;

beforeEach(fresh);

/** An informer that holds exactly `objects` (by namespace/name). */
function cacheOf(objects: KubeObject[]): CachedResource {
  const key = (namespace: string, name: string) => `${namespace}/${name}`;
  const held = new Map(objects.map((o) => [key(o.metadata?.namespace ?? '', o.metadata?.name ?? ''), o]));
  const lister: Lister = {
    get: (namespace, name) => held.get(key(namespace, name)),
    list: () => [...held.values()],
    byIndex: () => [],
  };
  return { synced: Promise.resolve(), lister };
}

async function stored(resource: string, namespace = ''): Promise<KubeObject[]> {
  const store = installer.storeFor('', resource);
  if (store === undefined) throw new Error(`no ${resource}`);
  return (await store.objects.list(store.rt, namespace, {})).items.map((i) => i.object);
}

/** What does not depend on when or by which call an object was made. */
const shape = (o: KubeObject): unknown => {
  const { uid: _uid, resourceVersion: _rv, ...metadata } = o.metadata ?? {};
  return { ...o, metadata };
};

describe('the start-up namespaces and service account', () => {
  it('an empty informer makes the same objects as the reads of the store did', async () => {
    await bootstrap(installer, profile, user, now);
    const sa = await ensureSandboxServiceAccount(installer, account, user, now);
    const withoutCache = [...(await stored('namespaces')), ...(await stored('serviceaccounts', 'default'))];
    expect(sa).toBeDefined();

    fresh();
    await bootstrap(installer, profile, user, now, cacheOf([]));
    const saCached = await ensureSandboxServiceAccount(installer, account, user, now, cacheOf([]));
    const withCache = [...(await stored('namespaces')), ...(await stored('serviceaccounts', 'default'))];
    expect(saCached).toBeDefined();
    expect(withCache.map(shape)).toEqual(withoutCache.map(shape));
    expect(withCache.map((o) => o.metadata?.name).sort()).toEqual(
      [...profile.initialNamespaces, account.name].sort(),
    );
  });

  it('an informer behind the store (it holds nothing yet) leaves the stored objects as they are', async () => {
    await bootstrap(installer, profile, user, now);
    const uid = await ensureSandboxServiceAccount(installer, account, user, now);
    const before = [...(await stored('namespaces')), ...(await stored('serviceaccounts', 'default'))];
    await bootstrap(installer, profile, user, now, cacheOf([]));
    expect(await ensureSandboxServiceAccount(installer, account, user, now, cacheOf([]))).toBe(uid);
    const after = [...(await stored('namespaces')), ...(await stored('serviceaccounts', 'default'))];
    expect(after).toEqual(before);
  });

  it('an informer that still holds objects the store lost does not keep them from being made again', async () => {
    await bootstrap(installer, profile, user, now);
    await ensureSandboxServiceAccount(installer, account, user, now);
    const held = [...(await stored('namespaces')), ...(await stored('serviceaccounts', 'default'))];
    fresh();
    await bootstrap(installer, profile, user, now, cacheOf(held));
    const uid = await ensureSandboxServiceAccount(installer, account, user, now, cacheOf(held));
    expect((await stored('namespaces')).map((o) => o.metadata?.name).sort()).toEqual(
      [...profile.initialNamespaces].sort(),
    );
    expect((await stored('serviceaccounts', 'default')).map((o) => o.metadata?.uid)).toEqual([uid]);
  });
});

describe.each(['orch', 'kubernetes'] as const)('a new store written directly (%s profile)', (name) => {
  beforeEach(() => {
    profile = namingProfile(name);
    fresh();
  });

  /**
   * Every stored entry as JSON text (field order included), uids numbered in order of appearance and revisions
   * masked: the create path writes the namespaces side by side, and which commits first (so takes which revision)
   * is not fixed when a write yields its turn (machinery/cooperative.ts) — the revisions are compared as a set.
   */
  async function storedEntries(): Promise<{ entries: string[]; revisions: number[] }> {
    const entries: StoredObject[] = [];
    for (const [resource, namespace] of [
      ['namespaces', ''],
      ['serviceaccounts', account.namespace],
    ] as const) {
      const store = installer.storeFor('', resource);
      if (store === undefined) throw new Error(`no ${resource}`);
      entries.push(...(await store.objects.list(store.rt, namespace, {})).items);
    }
    const uids = new Map<string, string>();
    return {
      entries: entries.map((e) =>
        JSON.stringify(e)
          .replace(/"uid":"([^"]+)"/g, (_, uid: string) => {
            if (!uids.has(uid)) uids.set(uid, `uid-${uids.size}`);
            return `"uid":"${uids.get(uid)}"`;
          })
          .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"<rv>"')
          .replace(/"revision":\d+/g, '"revision":"<rv>"'),
      ),
      revisions: entries.map((e) => e.revision).sort((a, b) => a - b),
    };
  }

  it('stores what the create path stores: the same objects, fields in the same order, the same revisions', async () => {
    await bootstrap(installer, profile, user, now);
    await ensureSandboxServiceAccount(installer, account, user, now);
    const created = await storedEntries();

    fresh();
    expect(await createFreshStartupObjects(installer, profile, account, now)).toBe(true);
    const direct = await storedEntries();
    expect(direct).toEqual(created);
    expect(direct.revisions).toEqual([...direct.entries.keys()].map((i) => i + 1));
    expect(direct.entries).toHaveLength(profile.initialNamespaces.length + 1);
  });

  it('leaves an object that exists already as it is', async () => {
    await ensureSandboxServiceAccount(installer, account, user, now);
    const [before] = await stored('serviceaccounts', 'default');
    expect(await createFreshStartupObjects(installer, profile, account, now)).toBe(true);
    expect(await stored('serviceaccounts', 'default')).toEqual([before]);
    expect((await stored('namespaces')).map((o) => o.metadata?.name).sort()).toEqual(
      [...profile.initialNamespaces].sort(),
    );
  });
});

/** A fresh store and installer, as a test's second server would have. */
function fresh(): void {
  const catalog = new Catalog(profile, profileDefinitions(profile, builtInDefinitions));
  catalog.loadBuiltIns(builtInRegistry, parseRuntimeConfig(undefined));
  installer = new RestInstaller(
    catalog,
    {
      storage: createMemoryStorage(),
      admission: { mutate: async () => undefined, validate: async () => undefined },
      definitions: catalog.definitions,
      profile,
      featureGates: {},
      now: () => now,
      tooLargeResourceVersionWaitMs: 100,
    },
    { authorizer: allowAll, tokenAuthenticator: new StaticTokens() },
  );
}
