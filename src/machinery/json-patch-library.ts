/**
 * fast-json-patch, loaded on first use (json-patch.lazy.ts): a caller
 * awaits `jsonPatchLibrary.load()` before it applies or computes a patch.
 */

import { LazyModule } from './lazy-module';
import type * as JsonPatchLibrary from './json-patch.lazy';

export const jsonPatchLibrary = new LazyModule<typeof JsonPatchLibrary>(
  'json-patch',
  () => import('./json-patch.lazy'),
);
