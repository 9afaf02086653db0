/**
 * CustomResourceDefinition: its strategy (stored versions, validation, the
 * cleanup finalizer on delete). Serving the resources it defines is the
 * registrar's (`registry/crd/registrar.ts`); naming, establishing and
 * finalizing are controllers (`controllers/crd-*.ts`).
 */

import type { KindRegistration } from '../../types';
import { crdHooks } from './strategy';

export const customResourceDefinition: KindRegistration = { hooks: crdHooks };
