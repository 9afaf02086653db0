/**
 * ValidatingAdmissionPolicyBinding (v1alpha1), validated as v1.27 does:
 * `policyName` required, a `paramRef` names its object, matchResources
 * (resourceRules optional), and `validationActions` — at least one, each
 * Deny, Warn or Audit, no duplicates, never Deny with Warn.
 */

import type { KindRegistration } from '../../types';
import { withValidation } from '../needs-cel';

export const validatingAdmissionPolicyBinding: KindRegistration = {
  hooks: {
    // Loaded with the first write; the kind has no other checks, so its errors keep their place.
    validateAsync: (obj) => withValidation(obj, (v) => v.validateBinding(obj)),
  },
};
