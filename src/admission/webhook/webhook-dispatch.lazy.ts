/**
 * The admission webhooks' dispatch (matching, the AdmissionReview call,
 * patches, errors, audit annotations): loaded by the webhook admission
 * plugins once a webhook configuration exists, never on the path to the
 * worker's first response (decision 0070). Until then the plugins only list
 * the configurations, as the dispatch would first.
 */

export { mutatingWebhookPlugin } from './mutating';
export { validatingWebhookPlugin } from './validating';
