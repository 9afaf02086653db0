/**
 * The one door to `jose` (JWS and JWK), which is loaded when first needed
 * (`joseLibrary`, see ./jose.lazy.ts): code awaits `joseLibrary.load()` at
 * its asynchronous entry point (a token signed or verified, a key made,
 * imported or exported) and uses what it returns. Its types are exported here
 * for everyone, since they vanish from the build. Importing the library
 * directly elsewhere would put it back on the service worker's path to its
 * first response (test/worker-lazy-imports.test.ts names such an importer).
 */

import { LazyModule } from './lazy-module';
import type * as Library from './jose.lazy';

export type { JWK } from 'jose';

export const joseLibrary = new LazyModule<typeof Library>('jose', () => import('./jose.lazy'));
