/**
 * The validation of admission configurations (webhook configurations,
 * ValidatingAdmissionPolicies and their bindings, with their CEL
 * expressions): loaded with the first write of one of those kinds
 * (`needs-cel.ts`), never on the path to the worker's first response
 * (decision 0070, round 3).
 */

export { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from './webhook-validation';
export { validatePolicy } from './validatingadmissionpolicy/validation';
export { validateBinding } from './validatingadmissionpolicybinding/validation';
