/** MutatingWebhookConfiguration: validated as the real server validates it (`../webhook-validation.ts`). */

import type { KindRegistration } from '../../types';
import { dropDisabledMatchConditions } from '../drop-match-conditions';
import { withCelWhenNeeded } from '../needs-cel';
import { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from '../webhook-validation';

export const mutatingWebhookConfiguration: KindRegistration = {
  hooks: {
    prepareForCreate: (obj, ctx) => dropDisabledMatchConditions(obj, undefined, ctx),
    prepareForUpdate: (obj, old, ctx) => dropDisabledMatchConditions(obj, old, ctx),
    // Match conditions compile as CEL: the library is loaded first when there are any.
    validateAsync: (obj, old) =>
      withCelWhenNeeded(obj, () =>
        old === undefined
          ? validateWebhookConfiguration(obj, true)
          : validateWebhookConfigurationUpdate(obj, old, true),
      ),
  },
};
