/** MutatingWebhookConfiguration: validated as the real server validates it (`../webhook-validation.ts`). */

import type { KindRegistration } from '../../types';
import { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from '../webhook-validation';

export const mutatingWebhookConfiguration: KindRegistration = {
  hooks: {
    validate: (obj) => validateWebhookConfiguration(obj, true),
    validateUpdate: (obj, old) => validateWebhookConfigurationUpdate(obj, old, true),
  },
};
