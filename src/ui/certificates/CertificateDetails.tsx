/**
 * An issued certificate, decoded: who it names (CN the user, O the groups),
 * its SANs and usages, the CA bit, validity and lifetime, the issuer, and
 * whether it chains to the cluster CA — checked in the page with the CA's
 * public key, as a TLS peer would.
 */

import { useMemo } from 'react';
import { ErrorNotice } from '../common/ErrorNotice';
import { useAsync } from '../hooks/useAsync';
import { certificateFacts, certificatesOf, checkChain, durationText } from './certificate-info';
import type { ClusterCA } from './useClusterCA';
import type { X509Certificate } from './x509';

function list(items: readonly string[]): string {
  return items.length === 0 ? 'none' : items.join(', ');
}

export function CertificateDetails({
  pem,
  ca,
  caError,
}: {
  pem: string;
  ca: ClusterCA | undefined;
  caError: unknown;
}) {
  const parsed = useMemo((): { chain: X509Certificate[]; leaf?: X509Certificate; error?: unknown } => {
    try {
      const chain = certificatesOf(pem);
      const leaf = chain[0];
      return leaf === undefined
        ? { chain, error: new Error('status.certificate holds no CERTIFICATE block') }
        : { chain, leaf };
    } catch (error) {
      return { chain: [], error };
    }
  }, [pem]);
  const chainCheck = useAsync(
    async () => (parsed.leaf === undefined || ca === undefined ? undefined : checkChain(parsed.leaf, ca.pem)),
    [pem, ca?.pem ?? ''],
  );
  if (parsed.leaf === undefined)
    return <ErrorNotice title="The certificate could not be read" error={parsed.error} />;
  const f = certificateFacts(parsed.leaf);
  return (
    <section className="csr-certificate" aria-labelledby="csr-certificate-title">
      <h4 id="csr-certificate-title">The issued certificate</h4>
      <dl className="access-facts" data-testid="certificate-facts">
        <dt>Subject</dt>
        <dd>
          <code>{f.subject}</code> — user <code>{f.commonName}</code>
          {f.organizations.length > 0 ? (
            <>
              , groups <code>{f.organizations.join(', ')}</code>
            </>
          ) : null}
        </dd>
        <dt>Issuer</dt>
        <dd>
          <code>{f.issuer}</code>
        </dd>
        <dt>Chain</dt>
        <dd data-testid="certificate-chain">
          {ca === undefined ? (
            caError !== undefined ? (
              'the cluster CA could not be read as this identity'
            ) : (
              'reading the cluster CA…'
            )
          ) : chainCheck.value === undefined ? (
            'checking…'
          ) : chainCheck.value.ok ? (
            <>
              <span className="csr-ok">✓ signed by the cluster CA</span>{' '}
              <code>{chainCheck.value.caSubject}</code> <span className="muted">(read from {ca.source})</span>
            </>
          ) : (
            <span className="error-text">✗ {chainCheck.value.problem}</span>
          )}
        </dd>
        <dt>Valid</dt>
        <dd>
          {f.notBefore.toISOString()} → {f.notAfter.toISOString()}{' '}
          <span className="muted">
            ({durationText(f.lifetimeSeconds)}; the signer backdates the start by 5 minutes)
          </span>
        </dd>
        <dt>SANs</dt>
        <dd>
          {list([
            ...f.dnsNames.map((n) => `DNS:${n}`),
            ...f.ipAddresses.map((n) => `IP:${n}`),
            ...f.otherNames,
          ])}
        </dd>
        <dt>Key usage</dt>
        <dd>{list(f.keyUsages)}</dd>
        <dt>Extended key usage</dt>
        <dd>{list(f.extendedKeyUsages)}</dd>
        <dt>CA</dt>
        <dd>{f.isCA ? 'yes (CA:TRUE)' : 'no (CA:FALSE — the built-in signers never issue a CA)'}</dd>
        <dt>Key</dt>
        <dd>
          {f.keyAlgorithm}, serial <code>{f.serialNumber}</code>
          {parsed.chain.length > 1
            ? `, with ${parsed.chain.length - 1} more certificate(s) in the chain`
            : ''}
        </dd>
      </dl>
    </section>
  );
}
