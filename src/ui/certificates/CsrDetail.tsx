/**
 * One request, live: its state diagram, what it asks for (the PKCS#10
 * subject and SANs as the signer reads them, signer, usages, lifetime, the
 * requester the server recorded), its conditions — a `Failed` one with the
 * rule it names — approve and deny while it is pending, when the cleaner
 * will delete it, and once issued the decoded certificate and how to use it.
 */

import { useMemo } from 'react';
import type { CertificateSigningRequest } from '../../api/certificates';
import { useNow } from '../hooks/useNow';
import { durationText, certificateFacts, certificatesOf } from './certificate-info';
import { CertificateDetails } from './CertificateDetails';
import { CsrActions } from './CsrActions';
import { describeRequest, pemOfBytesField } from './csr-request';
import { collectionTime, csrState, statePath } from './csr-state';
import { keyFor } from './key-vault';
import type { ApiNames } from './names';
import { ruleOfFailure, signerFor } from './signers';
import { StateDiagram } from './StateDiagram';
import { UseCertificate } from './UseCertificate';
import type { ClusterCA } from './useClusterCA';

function safeRequest(request: string | undefined) {
  try {
    return request === undefined ? undefined : describeRequest(request);
  } catch {
    return undefined;
  }
}

function notAfterOf(pem: string): Date | undefined {
  try {
    const leaf = certificatesOf(pem)[0];
    return leaf === undefined ? undefined : certificateFacts(leaf).notAfter;
  } catch {
    return undefined;
  }
}

export function CsrDetail({
  csr,
  deleted,
  names,
  ca,
  caError,
}: {
  csr: CertificateSigningRequest;
  deleted: boolean;
  names: ApiNames;
  ca: ClusterCA | undefined;
  caError: unknown;
}) {
  const now = useNow(15_000);
  const name = csr.metadata?.name ?? '';
  const state = csrState(csr, deleted);
  const requested = useMemo(() => safeRequest(csr.spec?.request), [csr.spec?.request]);
  const certificate = pemOfBytesField(csr.status?.certificate);
  const collect = collectionTime(csr, certificate === '' ? undefined : notAfterOf(certificate));
  const failed = csr.status?.conditions?.find((c) => c.type === 'Failed');
  const keyPEM = keyFor(csr.spec?.request);
  return (
    <section className="card csr-detail" aria-labelledby="csr-detail-title" data-csr={name}>
      <h3 id="csr-detail-title">
        Request <code>{name}</code>
      </h3>
      <StateDiagram path={statePath(csr, deleted)} />
      {deleted ? (
        <p role="status">The cleaner (or someone) deleted this request; what is shown is its last state.</p>
      ) : collect !== undefined ? (
        <p className="muted">
          The cleaner deletes it {collect.why}: in{' '}
          {durationText(Math.max(0, Math.round((collect.at.getTime() - Math.max(now, Date.now())) / 1000)))}.
        </p>
      ) : null}
      {failed !== undefined ? (
        <div className="error csr-failed" data-testid="csr-failed">
          <strong>The signer refused to sign ({failed.reason ?? 'Failed'})</strong>
          <p className="error-message">{failed.message}</p>
          {ruleOfFailure(failed.message) !== undefined ? (
            <p>
              <span className="explanation-label">Rule</span> {ruleOfFailure(failed.message)}
            </p>
          ) : null}
        </div>
      ) : null}
      <dl className="access-facts">
        <dt>Subject</dt>
        <dd>
          <code>{requested?.subject ?? '(unreadable request)'}</code>
        </dd>
        {requested !== undefined && requested.dnsNames.length + requested.ipAddresses.length > 0 ? (
          <>
            <dt>SANs</dt>
            <dd>
              {[
                ...requested.dnsNames.map((n) => `DNS:${n}`),
                ...requested.ipAddresses.map((n) => `IP:${n}`),
              ].join(', ')}
            </dd>
          </>
        ) : null}
        <dt>Signer</dt>
        <dd>
          <code>{csr.spec?.signerName}</code>
        </dd>
        <dt>Usages</dt>
        <dd>{(csr.spec?.usages ?? []).join(', ')}</dd>
        <dt>Lifetime asked</dt>
        <dd>
          {csr.spec?.expirationSeconds !== undefined
            ? `${csr.spec.expirationSeconds} s (${durationText(csr.spec.expirationSeconds)})`
            : 'not set: the signing duration'}
        </dd>
        <dt>Requested by</dt>
        <dd>
          <code>{csr.spec?.username ?? '?'}</code>
          {(csr.spec?.groups ?? []).length > 0 ? (
            <span className="muted"> in {(csr.spec?.groups ?? []).join(', ')}</span>
          ) : null}
          <span className="muted"> (filled in by the server from the requester)</span>
        </dd>
      </dl>
      {(csr.status?.conditions ?? []).length > 0 ? (
        <table className="access-table csr-conditions">
          <caption className="visually-hidden">Conditions of the request</caption>
          <thead>
            <tr>
              <th scope="col">Condition</th>
              <th scope="col">Reason</th>
              <th scope="col">Message</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {(csr.status?.conditions ?? []).map((c) => (
              <tr key={c.type}>
                <th scope="row">
                  {c.type}={c.status}
                </th>
                <td>{c.reason ?? ''}</td>
                <td>{c.message ?? ''}</td>
                <td>{c.lastUpdateTime ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {state === 'pending' ? <CsrActions csr={csr} names={names} /> : null}
      {state === 'approved' ? (
        <p role="status" className="muted">
          Approved; waiting for the signer.{' '}
          {signerFor(names, csr.spec?.signerName ?? '').kind === 'custom'
            ? 'No signer in the sandbox owns this name, so it stays approved without a certificate.'
            : ''}
        </p>
      ) : null}
      {certificate !== '' ? (
        <>
          <CertificateDetails pem={certificate} ca={ca} caError={caError} />
          <UseCertificate
            csr={csr}
            certificatePEM={certificate}
            keyPEM={keyPEM}
            user={requested?.commonName ?? ''}
            groups={requested?.organizations ?? []}
            caPEM={ca?.pem}
            names={names}
          />
        </>
      ) : null}
    </section>
  );
}
