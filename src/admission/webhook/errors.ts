/**
 * The two ways a webhook call fails, as the real dispatchers tell them
 * apart: it could not be called or answered nonsense (follows
 * `failurePolicy`; the client sees a 500 InternalError), or it answered
 * `allowed: false` (always a rejection, with the webhook's status).
 */

import type { Status } from '../../api/meta';
import { StatusError } from '../../machinery/errors';

/** Could not be called, timed out, answered garbage or another version. */
export class CallingWebhookError extends Error {
  constructor(
    readonly webhook: string,
    readonly reason: string,
    /** The code the rejection metric records (the real server records 400 for a call that failed). */
    readonly code = 400,
  ) {
    super(`failed calling webhook "${webhook}": ${reason}`);
  }

  /** What the client gets when the failure policy is Fail. */
  toStatusError(): StatusError {
    return new StatusError(500, 'InternalError', `Internal error occurred: ${this.message}`, {
      causes: [{ message: this.message }],
    });
  }
}

/** The webhook answered `allowed: false`: its status, with the real message wording. */
export function webhookRejection(webhook: string, result: Partial<Status> | undefined): StatusError {
  const deniedBy = `admission webhook "${webhook}" denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 ? result.code : 400;
  const message =
    typeof result?.message === 'string' && result.message !== ''
      ? `${deniedBy}: ${result.message}`
      : typeof result?.reason === 'string' && (result.reason as string) !== ''
        ? `${deniedBy}: ${result.reason}`
        : `${deniedBy} without explanation`;
  // A rejection is always a Failure, whatever status the webhook wrote.
  return new StatusError(code, result?.reason, message, result?.details);
}
