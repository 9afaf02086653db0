/**
 * The webhook backends' calls and validation, loaded with the first call to
 * a backend or the first write of one (see machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as BackendCalls from './backend-calls.lazy';

export const backendCalls = new LazyModule<typeof BackendCalls>(
  'backend-calls',
  () => import('./backend-calls.lazy'),
);
