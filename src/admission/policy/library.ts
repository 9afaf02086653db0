/**
 * The ValidatingAdmissionPolicy dispatch, loaded when the first policy is
 * there to evaluate (see machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as PolicyDispatch from './policy-dispatch.lazy';

export const policyDispatch = new LazyModule<typeof PolicyDispatch>(
  'policy-dispatch',
  () => import('./policy-dispatch.lazy'),
);
