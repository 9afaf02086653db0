/**
 * MutatingAdmissionWebhook: calls the matching webhooks of every
 * MutatingWebhookConfiguration in sequence, applying their JSON patches
 * (see `../webhook/mutating.ts`). The dispatch is a lazy script, loaded
 * with the first configuration there is to call (`../webhook/library.ts`).
 */

import type { AdmissionPluginFactory } from '../types';
import { lazyWebhookPlugin } from '../webhook/library';

export const mutatingAdmissionWebhook: AdmissionPluginFactory = (deps) =>
  lazyWebhookPlugin(deps, 'mutating', 'MutatingAdmissionWebhook');
