/**
 * ValidatingAdmissionWebhook: calls the matching webhooks of every
 * ValidatingWebhookConfiguration in parallel; any rejection fails the
 * request (see `../webhook/validating.ts`). The dispatch is a lazy script,
 * loaded with the first configuration there is to call (`../webhook/library.ts`).
 */

import type { AdmissionPluginFactory } from '../types';
import { lazyWebhookPlugin } from '../webhook/library';

export const validatingAdmissionWebhook: AdmissionPluginFactory = (deps) =>
  lazyWebhookPlugin(deps, 'validating', 'ValidatingAdmissionWebhook');
