/** MutatingWebhookConfiguration: validated as the real server validates it (`../webhook-validation.ts`). */

import type { KindRegistration } from '../../types';
import { dropDisabledMatchConditions } from '../drop-match-conditions';
import { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from '../webhook-validation';

export const mutatingWebhookConfiguration: KindRegistration = {
  hooks: {
    prepareForCreate: (obj, ctx) => dropDisabledMatchConditions(obj, undefined, ctx),
    prepareForUpdate: (obj, old, ctx) => dropDisabledMatchConditions(obj, old, ctx),
    validate: (obj) => validateWebhookConfiguration(obj, true),
    validateUpdate: (obj, old) => validateWebhookConfigurationUpdate(obj, old, true),
  },
};
