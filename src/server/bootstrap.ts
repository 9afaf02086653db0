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
  for (const name of profile.initialNamespaces) {
    const scope = internalScope(user, { ...target, name }, now);
    if ((await store.objects.get(store.rt, '', name)) !== undefined) continue;
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
  }
}
