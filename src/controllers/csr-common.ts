/**
 * What the certificate controllers share: the collection they watch, the
 * condition tests of the real `certificates` controller helpers (approved
 * means an Approved condition and no Denied one; a Failed condition with
 * status True or none stops signing), and the signing service the server
 * injects — the controllers never parse X.509 themselves.
 */

import type { CertificateSigningRequest, CsrCondition } from '../api/certificates';
import type { ResourceRef } from '../client/paths';
import type { NamingProfile } from '../machinery/naming';

/** What the server's signing service offers the controllers (see `src/auth/signers`). */
export interface CsrSigningService {
  /** The node client signer's name under the profile (the only one auto-approved). */
  readonly nodeClientSigner: string;
  handles(signerName: string): boolean;
  sign(input: {
    request: string;
    usages: readonly string[];
    signerName: string;
    expirationSeconds?: number;
    now: Date;
  }): Promise<{ certificate: string } | { failure: string }>;
  nodeClientCommonName(request: string, usages: readonly string[]): Promise<string | undefined>;
  certificateNotAfter(pem: string): Promise<Date | undefined>;
}

export function csrResource(profile: NamingProfile): ResourceRef {
  return { group: profile.suffixed('certificates'), version: 'v1', resource: 'certificatesigningrequests' };
}

export function conditionsOf(csr: CertificateSigningRequest): CsrCondition[] {
  return csr.status?.conditions ?? [];
}

/** The real `GetCertApprovalCondition`: any Approved or Denied condition counts, whatever its status. */
export function approvalState(csr: CertificateSigningRequest): { approved: boolean; denied: boolean } {
  const types = new Set(conditionsOf(csr).map((c) => c.type));
  return { approved: types.has('Approved'), denied: types.has('Denied') };
}

export function isApproved(csr: CertificateSigningRequest): boolean {
  const { approved, denied } = approvalState(csr);
  return approved && !denied;
}

/** The real `HasTrueCondition`: status True, or no status at all. */
export function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
  return conditionsOf(csr).some(
    (c) => c.type === type && (c.status === undefined || c.status === '' || c.status === 'True'),
  );
}

export function isIssued(csr: CertificateSigningRequest): boolean {
  return (csr.status?.certificate ?? '') !== '';
}
