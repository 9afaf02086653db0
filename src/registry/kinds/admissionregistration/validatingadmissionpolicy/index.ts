/**
 * ValidatingAdmissionPolicy (v1alpha1): validated on create and update as v1.27 validates it (`./validation.ts`),
 * with the CEL library loaded first to compile its expressions.
 */

import type { KindRegistration } from '../../types';
import { withValidation } from '../needs-cel';

export const validatingAdmissionPolicy: KindRegistration = {
  hooks: {
    validateAsync: (obj) => withValidation(obj, (v) => v.validatePolicy(obj)),
  },
};
