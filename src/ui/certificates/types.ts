/**
 * The shapes of the objects the certificate and token screens read and
 * write — CertificateSigningRequest (certificates/v1) and TokenRequest
 * (authentication/v1) — as far as the UI uses them.
 */

import type { KubeObject } from '../../api/meta';

export interface CsrCondition {
  type: string;
  status: string;
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
  };
  status?: { conditions?: CsrCondition[]; certificate?: string };
}

export interface TokenRequest extends KubeObject {
  spec: {
    audiences: string[];
    expirationSeconds?: number;
    boundObjectRef?: { kind: string; apiVersion: string; name: string; uid?: string };
  };
  status?: { token?: string; expirationTimestamp?: string };
}
