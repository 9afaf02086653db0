/**
 * The CRD machinery (validation and the served resources' builder), loaded
 * by the CRD strategy before a CRD is written and by the registrar once a
 * CRD is stored (see machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as CrdMachinery from './crd-machinery.lazy';

export const crdMachinery = new LazyModule<typeof CrdMachinery>(
  'crd-machinery',
  () => import('./crd-machinery.lazy'),
);
