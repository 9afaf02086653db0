/**
 * Using an issued certificate: one click makes it an identity of this tab
 * (the switcher offers it from then on; every request is signed with its
 * key, which never left the page), and for kubectl on the Node host the
 * kubeconfig user entry with certificate and key embedded, the commands
 * that add it, and the same flow done there with openssl and kubectl.
 */

import { useState } from 'react';
import type { CertificateSigningRequest } from '../../api/certificates';
import { CodeBlock } from '../common/CodeBlock';
import { CopyButton } from '../common/CopyButton';
import { ErrorNotice } from '../common/ErrorNotice';
import { useIdentityStore } from '../identity/IdentityContext';
import { credentialOf, type ActingAs } from '../lib/identity';
import { preferences } from '../lib/preferences';
import { certificateCommands, kubeconfigCertificateUser, nodeHostCsrFlow } from './kubeconfig';
import type { ApiNames } from './names';

export function UseCertificate({
  csr,
  certificatePEM,
  keyPEM,
  user,
  groups,
  caPEM,
  names,
}: {
  csr: CertificateSigningRequest;
  certificatePEM: string;
  keyPEM: string | undefined;
  user: string;
  groups: string[];
  caPEM: string | undefined;
  names: ApiNames;
}) {
  const store = useIdentityStore();
  const [error, setError] = useState<unknown>(undefined);
  const [adopted, setAdopted] = useState(false);
  const target = preferences.nodeHost();

  async function use() {
    if (keyPEM === undefined) return;
    setError(undefined);
    try {
      const acting: ActingAs = {
        name: `cert:${user}`,
        method: 'certificate',
        certificate: { certificatePEM, keyPEM },
        expected: {
          username: user,
          groups: [...groups.filter((g) => g !== 'system:authenticated'), 'system:authenticated'],
        },
      };
      // Import the key now, so a key WebCrypto cannot read fails here rather than on every request.
      await credentialOf(acting.certificate ?? { certificatePEM, keyPEM });
      store.adopt(acting);
      setAdopted(true);
    } catch (e) {
      setError(e);
    }
  }

  const flow = nodeHostCsrFlow(target, `${names.certificatesGroup}/v1`, {
    name: csr.metadata?.name ?? 'request',
    user,
    groups,
    signerName: csr.spec?.signerName ?? names.signers.apiserverClient,
    usages: csr.spec?.usages ?? [],
  });
  return (
    <section className="csr-use" aria-labelledby="csr-use-title">
      <h4 id="csr-use-title">Use it</h4>
      {keyPEM === undefined ? (
        <p className="muted">
          The private key of this request is not in this tab (it was made elsewhere, or in another tab), so
          the certificate can be read but not used here.
        </p>
      ) : (
        <>
          <p className="button-row">
            <button type="button" onClick={() => void use()}>
              Use as identity
            </button>
            {adopted ? (
              <span role="status">
                Acting as <code>cert:{user}</code>: every request is now signed with this certificate’s key.
              </span>
            ) : null}
          </p>
          {error !== undefined ? (
            <ErrorNotice title="The certificate could not be used" error={error} />
          ) : null}
          <details className="csr-kubectl">
            <summary>kubectl on the Node host</summary>
            <p className="muted">
              A kubeconfig <code>users</code> entry with the certificate and key embedded (this key is yours:
              keep it private).
            </p>
            <CodeBlock
              text={kubeconfigCertificateUser(user, certificatePEM, keyPEM)}
              label="kubeconfig user entry"
            />
            <CopyButton
              text={kubeconfigCertificateUser(user, certificatePEM, keyPEM)}
              label="Copy the user entry"
            />
            <p className="muted">
              Or with commands. The Node host has its own cluster CA, so it accepts this certificate only when
              started with this browser’s CA as an extra client CA:
            </p>
            <CodeBlock
              text={certificateCommands(target, user, certificatePEM, keyPEM, caPEM)}
              label="Commands for the Node host"
            />
          </details>
        </>
      )}
      <details className="csr-kubectl">
        <summary>The same request made on the Node host, with openssl and kubectl</summary>
        <CodeBlock text={flow} label="The CSR flow with openssl and kubectl" />
        <CopyButton text={flow} label="Copy the commands" />
      </details>
    </section>
  );
}
