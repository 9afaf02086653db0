/**
 * The admission plugins as lazy scripts: those off by default, loaded when a
 * chain enables one of them, and those on by default, loaded when a chain is
 * built by a caller that awaited them or at its first admission (see
 * machinery/lazy-module.ts, admission/build.ts and decision 0122).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as DefaultOn from './default-on-plugins.lazy';
import type * as OffByDefault from './off-by-default-plugins.lazy';

export const offByDefaultPlugins = new LazyModule<typeof OffByDefault>(
  'off-by-default-plugins',
  () => import('./off-by-default-plugins.lazy'),
);

export const defaultOnPlugins = new LazyModule<typeof DefaultOn>(
  'default-on-plugins',
  () => import('./default-on-plugins.lazy'),
);

// The lazy scripts the default-on plugins load themselves are declared on the worker's path, so that the plugins'
// script binds to the worker's instances (the build shares what both reach) instead of carrying copies of them.
export { podSecurityChecks } from '../pod-security/library';
export { policyDispatch } from '../policy/library';
