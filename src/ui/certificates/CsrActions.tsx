/**
 * Approve and deny, as `kubectl certificate approve|deny` does them: the
 * request as last seen with an `Approved` (or `Denied`) condition added,
 * PUT to its `approval` subresource — as the identity the UI acts as. An
 * identity without `update` on the subresource, or without `approve` on
 * the signer, gets a 403, shown with the sandbox's explanation of it.
 */

import { useState } from 'react';
import type { CertificateSigningRequest } from '../../api/certificates';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { useActingAs } from '../identity/IdentityContext';
import type { ApiNames } from './names';

/** RFC 3339 with whole seconds, as metav1.Time serializes. */
function nowText(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function withDecision(
  csr: CertificateSigningRequest,
  decision: 'Approved' | 'Denied',
  who: string,
): CertificateSigningRequest {
  const verb = decision === 'Approved' ? 'approved' : 'denied';
  return {
    ...csr,
    status: {
      ...csr.status,
      conditions: [
        ...(csr.status?.conditions ?? []).filter((c) => c.type !== decision),
        {
          type: decision,
          status: 'True',
          reason: decision === 'Approved' ? 'SandboxApprove' : 'SandboxDeny',
          message: `This CSR was ${verb} in the sandbox UI by ${who}.`,
          lastUpdateTime: nowText(),
        },
      ],
    },
  };
}

export function CsrActions({ csr, names }: { csr: CertificateSigningRequest; names: ApiNames }) {
  const client = useClient();
  const acting = useActingAs();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const name = csr.metadata?.name ?? '';

  async function decide(decision: 'Approved' | 'Denied') {
    setBusy(true);
    setError(undefined);
    try {
      await client.update(
        {
          group: names.certificatesGroup,
          version: 'v1',
          resource: 'certificatesigningrequests',
          name,
          subresource: 'approval',
        },
        withDecision(csr, decision, acting?.name ?? 'the UI'),
      );
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="csr-actions">
      <p className="button-row">
        <button type="button" disabled={busy} onClick={() => void decide('Approved')}>
          Approve as {acting?.name ?? '…'}
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => void decide('Denied')}>
          Deny as {acting?.name ?? '…'}
        </button>
      </p>
      <p className="muted">
        PUT …/certificatesigningrequests/{name}/approval, which needs <code>update</code> on{' '}
        <code>certificatesigningrequests/approval</code> and <code>approve</code> on <code>signers</code>{' '}
        named <code>{csr.spec?.signerName ?? ''}</code> (or its domain with <code>/*</code>).
      </p>
      {error !== undefined ? <ErrorNotice title="The decision was refused" error={error} /> : null}
    </div>
  );
}
