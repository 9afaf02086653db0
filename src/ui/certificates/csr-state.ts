/**
 * Where a CertificateSigningRequest is in its life, read from its
 * conditions and certificate the way kubectl's CONDITION column and the
 * controllers read them: pending (no condition), approved or denied (the
 * approval subresource), issued (approved, with `status.certificate`) or
 * failed (the signer's `Failed` condition), and finally garbage-collected
 * — with when the cleaner will delete it: an hour after approval, denial or
 * failure, a day after creation while pending, and once an issued
 * certificate expires, whichever comes first.
 */

import type { CertificateSigningRequest, CsrCondition } from '../../api/certificates';

export type CsrState = 'pending' | 'approved' | 'denied' | 'issued' | 'failed' | 'collected';

/** The states in the order the diagram draws them. */
export const csrStates: readonly CsrState[] = [
  'pending',
  'approved',
  'denied',
  'issued',
  'failed',
  'collected',
];

export const stateLabels: Record<CsrState, string> = {
  pending: 'Pending',
  approved: 'Approved',
  denied: 'Denied',
  issued: 'Issued',
  failed: 'Failed',
  collected: 'Garbage-collected',
};

const hour = 3600_000;

function condition(csr: CertificateSigningRequest, type: string): CsrCondition | undefined {
  return csr.status?.conditions?.find((c) => c.type === type && c.status !== 'False');
}

export function isIssued(csr: CertificateSigningRequest): boolean {
  return (csr.status?.certificate ?? '') !== '';
}

/** The state now; `deleted` when the watch saw it go. */
export function csrState(csr: CertificateSigningRequest, deleted = false): CsrState {
  if (deleted) return 'collected';
  if (condition(csr, 'Denied') !== undefined) return 'denied';
  if (condition(csr, 'Failed') !== undefined) return 'failed';
  if (condition(csr, 'Approved') !== undefined) return isIssued(csr) ? 'issued' : 'approved';
  return 'pending';
}

/** The states a request has been through, the current one last (what the diagram lights). */
export function statePath(csr: CertificateSigningRequest, deleted = false): CsrState[] {
  const path: CsrState[] = ['pending'];
  if (condition(csr, 'Approved') !== undefined) path.push('approved');
  if (condition(csr, 'Denied') !== undefined) path.push('denied');
  if (isIssued(csr)) path.push('issued');
  if (condition(csr, 'Failed') !== undefined) path.push('failed');
  if (deleted) path.push('collected');
  return path;
}

/** kubectl's CONDITION column: `Approved,Issued`, `Denied`, `Approved,Failed`, `Pending`. */
export function conditionColumn(csr: CertificateSigningRequest): string {
  const parts = (csr.status?.conditions ?? []).filter((c) => c.status !== 'False').map((c) => c.type);
  if (isIssued(csr)) parts.push('Issued');
  return parts.length === 0 ? 'Pending' : parts.join(',');
}

function timeOf(text: string | undefined | null): number | undefined {
  if (text === undefined || text === null || text === '') return undefined;
  const t = Date.parse(text);
  return Number.isNaN(t) ? undefined : t;
}

/** When the cleaner deletes the request, and why; undefined while nothing dates it. */
export function collectionTime(
  csr: CertificateSigningRequest,
  certificateNotAfter?: Date,
): { at: Date; why: string } | undefined {
  const candidates: { at: number; why: string }[] = [];
  const since = (type: string) => {
    const c = condition(csr, type);
    return timeOf(c?.lastUpdateTime ?? c?.lastTransitionTime);
  };
  const conditions = csr.status?.conditions ?? [];
  const created = timeOf(csr.metadata?.creationTimestamp);
  if (conditions.length === 0 && created !== undefined)
    candidates.push({ at: created + 24 * hour, why: 'pending for 24 hours' });
  // Denied and Failed first: at a tie (the signer fails a request the moment it is approved) they say more.
  for (const [type, why] of [
    ['Denied', 'an hour after denial'],
    ['Failed', 'an hour after failing'],
    ['Approved', 'an hour after approval'],
  ] as const) {
    const t = since(type);
    if (t !== undefined) candidates.push({ at: t + hour, why });
  }
  if (certificateNotAfter !== undefined)
    candidates.push({ at: certificateNotAfter.getTime(), why: 'when the certificate expires' });
  const first = candidates.sort((a, b) => a.at - b.at)[0];
  return first === undefined ? undefined : { at: new Date(first.at), why: first.why };
}

/** The condition that explains the state (the signer's message for Failed, the approver's for the others). */
export function explainingCondition(csr: CertificateSigningRequest): CsrCondition | undefined {
  return condition(csr, 'Failed') ?? condition(csr, 'Denied') ?? condition(csr, 'Approved');
}
