/**
 * The CRD validation, loaded by the CRD strategy's asynchronous validation
 * before a CRD is written (see machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as CrdValidation from './crd-validation.lazy';

export const crdValidation = new LazyModule<typeof CrdValidation>(
  'crd-validation',
  () => import('./crd-validation.lazy'),
);
