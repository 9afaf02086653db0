/**
 * How the x509, front-proxy, OIDC, token-webhook and proof-of-possession
 * authenticators refuse a credential: a 401 StatusError whose wire message
 * is the real server's generic `Unauthorized`, while `message` and
 * `attempt` carry the real server's log text for the learner's explanation
 * (`X-Sandbox-Explain`). A chain that simply rethrows it still answers
 * exactly as the real server does; a chain that records attempts reads
 * `attempt` (or `message`).
 */

import { StatusError } from '../../machinery/errors';
import type { AuthenticatorAttempt } from '../../api/explain';

export class AuthenticationRejected extends StatusError {
  readonly attempt: AuthenticatorAttempt;

  /** `result` `rejected`: the credential is bad; `error`: the authenticator could not decide (an issuer or webhook failed). */
  constructor(authenticator: string, reason: string, result: 'rejected' | 'error' = 'rejected') {
    super(401, 'Unauthorized', 'Unauthorized');
    this.name = 'AuthenticationRejected';
    // The Status body keeps `Unauthorized`; only the JavaScript message (logs, attempts) carries the reason.
    this.message = reason;
    this.attempt = { authenticator, result, reason };
  }
}

/** The attempt recorded by an authenticator's refusal, or undefined for any other error. */
export function rejectionAttempt(error: unknown): AuthenticatorAttempt | undefined {
  return error instanceof AuthenticationRejected ? error.attempt : undefined;
}
