/**
 * What exists from the start: the namespaces `default` and the profile's
 * system and public namespaces, created through the namespaces' storage
 * (so the strategy and admission apply) as the server's own loopback
 * identity, if they are missing (several server instances may race; the
 * loser's AlreadyExists is expected). Whether one is missing is asked of the
 * store, unless the resource's synced informer does not hold it: then it is
 * created at once (a fresh store's start skips a read per object; a cache
 * behind the store still ends in the create's AlreadyExists, and a cache that
 * still holds an object the store lost is checked against the store).
 *
 * A store this start's own open created (`Storage.createdByOpen`), with an
 * admission chain that cannot refuse or change these objects there, gets them
 * from `createFreshStartupObjects` instead: the same objects, prepared by the
 * same strategy steps, written together without the create path (0109).
 */

import type { UserInfo } from '../api/authn';
import { StatusError } from '../machinery/errors';
import type { Lister } from '../machinery/lister';
import type { NamingProfile } from '../machinery/naming';
import type { KubeObject } from '../api/meta';
import type { GenericStore } from '../registry/generic/store';
import type { RestInstaller } from '../registry/installer';
import { internalScope } from '../registry/rest/scope';

/** A resource's informer, as the start has it: its lister is trusted once `synced` resolved. */
export interface CachedResource {
  readonly synced: Promise<void>;
  readonly lister: Lister;
}

/** Whether the informer, once synced, does not hold `namespace/name` (so the store need not be asked first). */
async function notCached(
  cached: CachedResource | undefined,
  namespace: string,
  name: string,
): Promise<boolean> {
  if (cached === undefined) return false;
  await cached.synced;
  return cached.lister.get(namespace, name) === undefined;
}

/** A start-up namespace as its create asks for it. */
function initialNamespace(profile: NamingProfile, name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { [`${profile.prefixed('metadata.name')}`]: name } },
  };
}

/** The sandbox's service account as its create asks for it. */
function sandboxAccount(account: { namespace: string; name: string }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: account.name, namespace: account.namespace },
  };
}

export async function bootstrap(
  rest: RestInstaller,
  profile: NamingProfile,
  user: UserInfo,
  now: Date,
  cached?: CachedResource,
): Promise<void> {
  await ensureNamespaces(rest, profile, profile.initialNamespaces, user, now, cached);
}

/**
 * Creates those of `names` that do not exist (a terminating one exists: it is made again once it is gone), as
 * the start does and as the real server's system-namespaces loop does every minute (system-namespaces.ts).
 */
export async function ensureNamespaces(
  rest: RestInstaller,
  profile: NamingProfile,
  names: readonly string[],
  user: UserInfo,
  now: Date,
  cached?: CachedResource,
): Promise<void> {
  const store = rest.storeFor('', 'namespaces');
  if (store === undefined) return;
  const target = {
    verb: 'create' as const,
    namespace: '',
    name: '',
    subresource: '',
    requestResource: { group: '', version: 'v1', resource: 'namespaces' },
    requestKind: { group: '', version: 'v1', kind: 'Namespace' },
  };
  // Side by side: the store may commit them together.
  const ensure = async (name: string): Promise<void> => {
    const scope = internalScope(user, { ...target, name }, now);
    if (!(await notCached(cached, '', name)) && (await store.objects.get(store.rt, '', name)) !== undefined)
      return;
    try {
      await store.create({ ...scope, name: '' }, initialNamespace(profile, name), {});
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  };
  await Promise.all(names.map(ensure));
}

/** The service account whose token the sandbox offers as a built-in identity; returns its uid. */
export async function ensureSandboxServiceAccount(
  rest: RestInstaller,
  account: { namespace: string; name: string },
  user: UserInfo,
  now: Date,
  cached?: CachedResource,
): Promise<string | undefined> {
  const store = rest.storeFor('', 'serviceaccounts');
  if (store === undefined) return undefined;
  if (!(await notCached(cached, account.namespace, account.name))) {
    const existing = await store.objects.get(store.rt, account.namespace, account.name);
    if (existing !== undefined) return existing.object.metadata?.uid;
  }
  const scope = internalScope(
    user,
    {
      verb: 'create',
      namespace: account.namespace,
      name: '',
      subresource: '',
      requestResource: { group: '', version: 'v1', resource: 'serviceaccounts' },
      requestKind: { group: '', version: 'v1', kind: 'ServiceAccount' },
    },
    now,
  );
  try {
    const created = await store.create(scope, sandboxAccount(account), {});
    return created.metadata?.uid;
  } catch (e) {
    if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    return (await store.objects.get(store.rt, account.namespace, account.name))?.object.metadata?.uid;
  }
}

/**
 * The start-up namespaces and the sandbox's service account on a store nothing else has written (the browser's
 * first visit): each prepared as the create path prepares a create without a field manager — the kind's
 * defaults, the strategy's `prepareForCreate` (uid, creationTimestamp, a namespace's finalizer and phase) and
 * canonical field order — then stored with `ObjectStore.create`, all issued at once in the order the create
 * path stores them (the namespaces, then the account), so they take the same resourceVersions and reach the
 * informers and watches as the same ADDED events. What the create path does besides cannot change them here
 * and is skipped: validation (these objects are valid by construction; bootstrap.test.ts compares both paths'
 * objects) and admission, which the caller skips only when it cannot refuse or change them (no webhook, policy
 * or quota exists yet, and only plugins on by default, unconfigured, are enabled). An object that exists already
 * is left as it is, as the create path's AlreadyExists. Returns false, having changed nothing it could not keep,
 * when a write failed otherwise: the caller then runs the create path, which makes what is missing.
 */
export async function createFreshStartupObjects(
  rest: RestInstaller,
  profile: NamingProfile,
  account: { namespace: string; name: string },
  now: Date,
): Promise<boolean> {
  const namespaces = rest.storeFor('', 'namespaces');
  const accounts = rest.storeFor('', 'serviceaccounts');
  if (namespaces === undefined || accounts === undefined) return false;
  const writes: [GenericStore, KubeObject][] = [
    ...profile.initialNamespaces.map((name): [GenericStore, KubeObject] => [
      namespaces,
      initialNamespace(profile, name),
    ]),
    [accounts, sandboxAccount(account)],
  ];
  const outcomes = await Promise.allSettled(
    writes.map(([store, object]) => store.objects.create(store.rt, store.preparedForCreate(object, now))),
  );
  return outcomes.every(
    (o) =>
      o.status === 'fulfilled' || (o.reason instanceof StatusError && o.reason.reason === 'AlreadyExists'),
  );
}
