/** ValidatingWebhookConfiguration: validated as the real server validates it (`../webhook-validation.ts`). */

import type { KindRegistration } from '../../types';
import { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from '../webhook-validation';

export const validatingWebhookConfiguration: KindRegistration = {
  hooks: {
    validate: (obj) => validateWebhookConfiguration(obj, false),
    validateUpdate: (obj, old) => validateWebhookConfigurationUpdate(obj, old, false),
  },
};
