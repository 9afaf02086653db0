/**
 * ValidatingAdmissionPolicy (v1alpha1): validated on create and update as v1.27 validates it (`./validation.ts`),
 * with the CEL library loaded first to compile its expressions.
 */

import type { KindRegistration } from '../../types';
import { withCelWhenNeeded } from '../needs-cel';
import { validatePolicy } from './validation';

export const validatingAdmissionPolicy: KindRegistration = {
  hooks: {
    validateAsync: (obj) => withCelWhenNeeded(obj, () => validatePolicy(obj)),
  },
};
