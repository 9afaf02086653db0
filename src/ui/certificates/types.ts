/**
 * The TokenRequest (authentication/v1) as far as the token screen uses it;
 * the CertificateSigningRequest shape is src/api/certificates.ts.
 */

import type { KubeObject } from '../../api/meta';

export interface TokenRequest extends KubeObject {
  spec: {
    audiences: string[];
    expirationSeconds?: number;
    boundObjectRef?: { kind: string; apiVersion: string; name: string; uid?: string };
  };
  status?: { token?: string; expirationTimestamp?: string };
}
