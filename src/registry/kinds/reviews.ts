/**
 * The review kinds' storages as they are registered: a Creater whose
 * handler (reviews.lazy.ts) is loaded with the kind's first review. A
 * review only answers a POST, which a first visit never sends, and their
 * handlers were worker script every first visit compiled without running.
 */

import { LazyModule } from '../../machinery/lazy-module';
import type { Creater, RestStorage } from '../rest/capabilities';
import type * as Reviews from './reviews.lazy';

const reviews = new LazyModule<typeof Reviews>('reviews', () => import('./reviews.lazy'));

/**
 * A review kind's storage: `make` builds its handler from the loaded module on the first review. What `make`
 * takes from the server (the authorizer, the token authenticator) the caller reads at registration, as before.
 */
export function reviewStorage(
  make: (module: typeof Reviews) => Creater & RestStorage,
): Creater & RestStorage {
  const handler = reviews.builtOnFirstUse(make);
  return {
    async create(scope, object, options) {
      return (await handler()).create(scope, object, options);
    },
  };
}
