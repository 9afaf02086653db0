/**
 * MutatingAdmissionWebhook: calls the matching webhooks of every
 * MutatingWebhookConfiguration in sequence, applying their JSON patches
 * (see `../webhook/mutating.ts`).
 */

import type { AdmissionPluginFactory } from '../types';
import { mutatingWebhookPlugin } from '../webhook/mutating';

export const mutatingAdmissionWebhook: AdmissionPluginFactory = (deps) => mutatingWebhookPlugin(deps);
