/**
 * ValidatingAdmissionWebhook: calls the matching webhooks of every
 * ValidatingWebhookConfiguration in parallel; any rejection fails the
 * request (see `../webhook/validating.ts`).
 */

import type { AdmissionPluginFactory } from '../types';
import { validatingWebhookPlugin } from '../webhook/validating';

export const validatingAdmissionWebhook: AdmissionPluginFactory = (deps) => validatingWebhookPlugin(deps);
