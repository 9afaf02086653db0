/**
 * The admission metrics the real server exposes on `/metrics`: the
 * duration of each plugin, of each webhook and of each phase, and the
 * webhook rejection counter. The chain and the webhook dispatchers report
 * here; `server/metrics.ts` renders them.
 */

import type { AdmissionOperation } from './types';

export interface AdmissionMetrics {
  /** `apiserver_admission_controller_admission_duration_seconds` (type `admit` or `validate`). */
  observeController(
    labels: { name: string; operation: AdmissionOperation; rejected: boolean; type: 'admit' | 'validate' },
    seconds: number,
  ): void;
  /** `apiserver_admission_step_admission_duration_seconds`: a whole phase. */
  observeStep(
    labels: { operation: AdmissionOperation; rejected: boolean; type: 'admit' | 'validate' },
    seconds: number,
  ): void;
  /** `apiserver_admission_webhook_admission_duration_seconds` (type `admit` or `validating`). */
  observeWebhook(
    labels: { name: string; operation: AdmissionOperation; rejected: boolean; type: 'admit' | 'validating' },
    seconds: number,
  ): void;
  /** `apiserver_admission_webhook_rejection_count`. */
  webhookRejection(labels: {
    name: string;
    operation: AdmissionOperation;
    type: 'admit' | 'validating';
    errorType: 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error';
    rejectionCode: number;
  }): void;
}

export const noAdmissionMetrics: AdmissionMetrics = {
  observeController() {},
  observeStep() {},
  observeWebhook() {},
  webhookRejection() {},
};
