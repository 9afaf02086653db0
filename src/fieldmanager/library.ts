/**
 * The field manager as a lazy module (see machinery/lazy-module.ts): a write
 * awaits `fieldManagement.load()` before it records ownership or applies a
 * configuration (the store's write path, the patch handler's apply).
 */

import { LazyModule } from '../machinery/lazy-module';
import type * as FieldManagement from './field-management.lazy';

export const fieldManagement = new LazyModule<typeof FieldManagement>(
  'field-management',
  () => import('./field-management.lazy'),
);
