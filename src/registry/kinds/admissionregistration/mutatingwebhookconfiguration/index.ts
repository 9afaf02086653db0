/** MutatingWebhookConfiguration: validated as the real server validates it (`../webhook-validation.ts`). */

import type { KindRegistration } from '../../types';
import { dropDisabledMatchConditions } from '../drop-match-conditions';
import { withValidation } from '../needs-cel';

export const mutatingWebhookConfiguration: KindRegistration = {
  hooks: {
    prepareForCreate: (obj, ctx) => dropDisabledMatchConditions(obj, undefined, ctx),
    prepareForUpdate: (obj, old, ctx) => dropDisabledMatchConditions(obj, old, ctx),
    // Match conditions compile as CEL: the library is loaded first when there are any.
    validateAsync: (obj, old) =>
      withValidation(obj, (v) =>
        old === undefined
          ? v.validateWebhookConfiguration(obj, true)
          : v.validateWebhookConfigurationUpdate(obj, old, true),
      ),
  },
};
