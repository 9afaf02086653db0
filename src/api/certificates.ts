/**
 * The CertificateSigningRequest (certificates/v1) as far as the
 * controllers and the UI read and write it: the PKCS#10 request and the
 * issued certificate are base64 `[]byte` fields, the conditions carry the
 * approval and the outcome.
 */

import type { KubeObject } from './meta';

export interface CsrCondition {
  type: string;
  /** Required by validation; a condition without one counts as True where upstream's `HasTrueCondition` says so. */
  status?: string;
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
  spec?: {
    request?: string;
    signerName?: string;
    usages?: string[];
    expirationSeconds?: number;
    username?: string;
    uid?: string;
    groups?: string[];
    extra?: Record<string, string[]>;
  };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}
