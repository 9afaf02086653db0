import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest, CsrCondition } from '../../api/certificates';
import { collectionTime, conditionColumn, csrState, statePath } from './csr-state';

const created = '2026-01-01T00:00:00Z';

function csr(conditions: CsrCondition[], certificate = ''): CertificateSigningRequest {
  return {
    metadata: { name: 'r', creationTimestamp: created },
    spec: { signerName: 'orch.io/apiserver-client' },
    status: { conditions, ...(certificate === '' ? {} : { certificate }) },
  };
}

const approved: CsrCondition = { type: 'Approved', status: 'True', lastUpdateTime: '2026-01-01T00:10:00Z' };
const denied: CsrCondition = { type: 'Denied', status: 'True', lastUpdateTime: '2026-01-01T00:20:00Z' };
const failed: CsrCondition = {
  type: 'Failed',
  status: 'True',
  reason: 'SignerValidationFailure',
  lastUpdateTime: '2026-01-01T00:11:00Z',
};

describe('the state of a request', () => {
  const table: {
    name: string;
    obj: CertificateSigningRequest;
    state: string;
    path: string[];
    column: string;
  }[] = [
    { name: 'pending', obj: csr([]), state: 'pending', path: ['pending'], column: 'Pending' },
    {
      name: 'approved',
      obj: csr([approved]),
      state: 'approved',
      path: ['pending', 'approved'],
      column: 'Approved',
    },
    { name: 'denied', obj: csr([denied]), state: 'denied', path: ['pending', 'denied'], column: 'Denied' },
    {
      name: 'issued',
      obj: csr([approved], 'PEM'),
      state: 'issued',
      path: ['pending', 'approved', 'issued'],
      column: 'Approved,Issued',
    },
    {
      name: 'failed',
      obj: csr([approved, failed]),
      state: 'failed',
      path: ['pending', 'approved', 'failed'],
      column: 'Approved,Failed',
    },
  ];
  for (const row of table)
    it(row.name, () => {
      expect(csrState(row.obj)).toBe(row.state);
      expect(statePath(row.obj)).toEqual(row.path);
      expect(conditionColumn(row.obj)).toBe(row.column);
    });

  it('a deleted request is garbage-collected, after the states it went through', () => {
    expect(csrState(csr([approved], 'PEM'), true)).toBe('collected');
    expect(statePath(csr([denied]), true)).toEqual(['pending', 'denied', 'collected']);
  });

  it('a condition with status False does not count', () => {
    expect(csrState(csr([{ type: 'Approved', status: 'False' }]))).toBe('pending');
  });
});

describe('when the cleaner deletes a request', () => {
  it('pending: a day after creation', () => {
    expect(collectionTime(csr([]))?.at.toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });
  it('approved, denied, failed: an hour after the condition', () => {
    expect(collectionTime(csr([approved]))?.at.toISOString()).toBe('2026-01-01T01:10:00.000Z');
    expect(collectionTime(csr([denied]))?.why).toBe('an hour after denial');
    expect(collectionTime(csr([approved, failed]))?.at.toISOString()).toBe('2026-01-01T01:10:00.000Z');
  });
  it('issued: whichever comes first, an hour after approval or the certificate expiring', () => {
    const soon = new Date('2026-01-01T00:30:00Z');
    expect(collectionTime(csr([approved], 'PEM'), soon)).toEqual({
      at: soon,
      why: 'when the certificate expires',
    });
  });
});
