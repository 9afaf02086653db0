/** ValidatingAdmissionPolicy (v1alpha1): validated on create and update as v1.27 validates it (`./validation.ts`). */

import type { KindRegistration } from '../../types';
import { validatePolicy } from './validation';

export const validatingAdmissionPolicy: KindRegistration = {
  hooks: {
    validate: (obj) => validatePolicy(obj),
    validateUpdate: (obj) => validatePolicy(obj),
  },
};
