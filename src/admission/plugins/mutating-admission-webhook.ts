/**
 * MutatingAdmissionWebhook: not built yet — admits everything. (Placeholder: the admission issue replaces it.)
 */

import type { AdmissionPluginFactory } from '../types';

export const mutatingAdmissionWebhook: AdmissionPluginFactory = () => ({ name: 'MutatingAdmissionWebhook' });
