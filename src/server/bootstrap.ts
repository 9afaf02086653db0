/**
 * What exists from the start: the namespaces `default` and the profile's
 * system and public namespaces, created through the normal write pipeline
 * if they are missing (several server instances may race; the loser's
 * AlreadyExists is expected).
 */

import type { UserInfo } from '../api/authn';
import { StatusError } from '../machinery/errors';
import type { ServerContext } from '../http/server-context';

export async function bootstrap(server: ServerContext, user: UserInfo): Promise<void> {
  const rt = server.catalog.lookup('', 'v1', 'namespaces');
  if (rt === undefined) return;
  for (const name of server.profile.initialNamespaces) {
    if ((await server.store.get(rt, '', name)) !== undefined) continue;
    try {
      await server.runWrite({
        verb: 'create',
        rt,
        subresource: '',
        namespace: '',
        name: '',
        dryRun: false,
        user,
        desired: () => ({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name, labels: { [`${server.profile.prefixed('metadata.name')}`]: name } },
        }),
        createWhenMissing: true,
      });
    } catch (e) {
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  }
}
