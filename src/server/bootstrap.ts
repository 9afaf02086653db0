/**
 * What exists from the start: the namespaces `default` and the profile's
 * system and public namespaces, created through the namespaces' storage
 * (so the strategy and admission apply) as the server's own loopback
 * identity, if they are missing (several server instances may race; the
 * loser's AlreadyExists is expected).
 */

import type { UserInfo } from '../api/authn';
import { StatusError } from '../machinery/errors';
import type { NamingProfile } from '../machinery/naming';
import type { RestInstaller } from '../registry/installer';
import { internalScope } from '../registry/rest/scope';

export async function bootstrap(
  rest: RestInstaller,
  profile: NamingProfile,
  user: UserInfo,
  now: Date,
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
    if ((await store.objects.get(store.rt, '', name)) !== undefined) return;
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
): Promise<string | undefined> {
  const store = rest.storeFor('', 'serviceaccounts');
  if (store === undefined) return undefined;
  const existing = await store.objects.get(store.rt, account.namespace, account.name);
  if (existing !== undefined) return existing.object.metadata?.uid;
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
