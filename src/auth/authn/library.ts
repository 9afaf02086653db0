/**
 * The external token authenticators, loaded when first needed (see
 * external-token-authenticators.lazy.ts and machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import { onceAsync } from '../../machinery/once-async';
import type * as ExternalTokenAuthenticators from './external-token-authenticators.lazy';
import type { TokenAuthenticator } from './types';

export const externalTokenAuthenticators = new LazyModule<typeof ExternalTokenAuthenticators>(
  'external-token-authenticators',
  () => import('./external-token-authenticators.lazy'),
);

/**
 * An authenticator built with the library on its first token: until then the union's earlier members (the
 * built-in tokens, service accounts) answer without it. A failed load fails that token and is tried again.
 */
export function deferredTokenAuthenticator(
  build: (library: typeof ExternalTokenAuthenticators) => TokenAuthenticator,
): TokenAuthenticator {
  const built = onceAsync(async () => build(await externalTokenAuthenticators.load()));
  return {
    async authenticateToken(token, audiences) {
      return (await built()).authenticateToken(token, audiences);
    },
  };
}
