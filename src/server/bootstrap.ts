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
 */

import type { UserInfo } from '../api/authn';
import { StatusError } from '../machinery/errors';
import type { Lister } from '../machinery/lister';
import type { NamingProfile } from '../machinery/naming';
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

export async function bootstrap(
  rest: RestInstaller,
  profile: NamingProfile,
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
      await store.create(
        { ...scope, name: '' },
        {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name, labels: { [`${profile.prefixed('metadata.name')}`]: name } },
        },
        {},
      );
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  };
  await Promise.all(profile.initialNamespaces.map(ensure));
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
    const created = await store.create(
      scope,
      {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: account.name, namespace: account.namespace },
      },
      {},
    );
    return created.metadata?.uid;
  } catch (e) {
    if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    return (await store.objects.get(store.rt, account.namespace, account.name))?.object.metadata?.uid;
  }
}
