/**
 * The PATCH handler as a lazy module (see machinery/lazy-module.ts): the
 * dispatcher loads it when a PATCH is routed to a resource that takes one.
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as PatchHandler from './patch.lazy';

export const patchHandler = new LazyModule<typeof PatchHandler>('patch', () => import('./patch.lazy'));
