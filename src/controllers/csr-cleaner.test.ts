import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest, CsrCondition } from '../api/certificates';
import { cleanupDeadline } from './csr-cleaner';

const t0 = '2026-03-01T12:00:00Z';
const at = (iso: string, plusMs: number): number => Date.parse(iso) + plusMs;
const hour = 3_600_000;
const expiry = new Date('2026-03-01T12:10:00Z');

function csr(conditions: CsrCondition[], certificate?: string): CertificateSigningRequest {
  return {
    metadata: { name: 'x', creationTimestamp: t0 },
    status: { conditions, ...(certificate !== undefined ? { certificate } : {}) },
  };
}

const notAfter = (pem: string): Date | undefined => (pem === 'CERT' ? expiry : undefined);
const cert = btoa('CERT');

describe('cleanup deadlines', () => {
  it.each([
    { name: 'pending: a day after creation', csr: csr([]), deadline: at(t0, 24 * hour) },
    {
      name: 'denied: an hour after its last update',
      csr: csr([{ type: 'Denied', status: 'True', lastUpdateTime: '2026-03-01T13:00:00Z' }]),
      deadline: at('2026-03-01T13:00:00Z', hour),
    },
    {
      name: 'failed: an hour after its last update',
      csr: csr([
        { type: 'Approved', status: 'True', lastUpdateTime: '2026-03-01T13:00:00Z' },
        { type: 'Failed', status: 'True', lastUpdateTime: '2026-03-01T12:30:00Z' },
      ]),
      deadline: at('2026-03-01T12:30:00Z', hour),
    },
    {
      name: 'approved, not issued: an hour after approval (the spec’s rule)',
      csr: csr([{ type: 'Approved', status: 'True', lastUpdateTime: t0 }]),
      deadline: at(t0, hour),
    },
    {
      name: 'issued: when the certificate expires, if sooner',
      csr: csr([{ type: 'Approved', status: 'True', lastUpdateTime: t0 }], cert),
      deadline: expiry.getTime(),
    },
    {
      name: 'only a transition time: never, as the real cleaner reads lastUpdateTime alone',
      csr: csr([{ type: 'Denied', status: 'True', lastTransitionTime: t0 }]),
      deadline: undefined,
    },
    { name: 'no time at all: never', csr: csr([{ type: 'Denied', status: 'True' }]), deadline: undefined },
    {
      name: 'a certificate without approval does not expire the request',
      csr: csr([{ type: 'Denied', status: 'True' }], cert),
      deadline: undefined,
    },
  ])('$name', ({ csr: request, deadline }) => {
    expect(cleanupDeadline(request, notAfter)).toBe(deadline);
  });
});
