/**
 * The admission plugins off by default, loaded when a chain enables one of
 * them (see machinery/lazy-module.ts and admission/build.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as OffByDefault from './off-by-default-plugins.lazy';

export const offByDefaultPlugins = new LazyModule<typeof OffByDefault>(
  'off-by-default-plugins',
  () => import('./off-by-default-plugins.lazy'),
);
