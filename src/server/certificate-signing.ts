/**
 * The certificate signing service the CSR controllers are given, built from
 * the controller manager's signing flags as the real one starts its
 * `csrsigning` controllers: one CA for every built-in signer
 * (`--cluster-signing-cert-file`/`--cluster-signing-key-file`; unset, the
 * cluster CA the server keeps — a sandbox default, the real controller
 * manager then signs nothing), or per-signer files, in which case a signer
 * without files of its own is not run. Both at once, a certificate file
 * that is not exactly one certificate, or a key that does not match it
 * stop the start with the real messages.
 */

import type { NamingProfile } from '../machinery/naming';
import type { CertificateAuthority } from '../auth/pki/issue';
import { exportPublicKeyPEM, importPrivateKeyPEM } from '../auth/pki/keys';
import { decodePEM } from '../auth/pki/pem';
import { x509, x509Library, type X509Certificate } from '../auth/pki/x509';
import {
  certificateSigningService,
  type CertificateSigningService,
  type SignerKind,
} from '../auth/signers/index';
import { policyNames } from '../auth/policy/names';
import type { ClusterSigningOptions, SigningFiles } from './options';

type FlagSigner = keyof NonNullable<ClusterSigningOptions['signers']>;

const kinds: Record<FlagSigner, SignerKind> = {
  kubeletServing: 'kubeletServing',
  kubeletClient: 'apiserverClientKubelet',
  kubeApiserverClient: 'apiserverClient',
  legacyUnknown: 'legacyUnknown',
};

async function loadAuthority(files: SigningFiles): Promise<CertificateAuthority> {
  const certs = decodePEM(files.certPEM);
  if (certs.length !== 1)
    throw new Error(
      `error reading CA cert file "${files.certFile}": expected 1 certificate, found ${certs.length}`,
    );
  const der = certs[0] as Uint8Array<ArrayBuffer>;
  await x509Library.load();
  let certificate: X509Certificate;
  try {
    certificate = new (x509().X509Certificate)(der);
  } catch (e) {
    throw new Error(
      `error reading CA cert file "${files.certFile}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  let keys: CryptoKeyPair;
  try {
    keys = await importPrivateKeyPEM(files.keyPEM);
  } catch (e) {
    throw new Error(
      `error reading CA key file "${files.keyFile}": ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const certKey = await exportPublicKeyPEM(await certificate.publicKey.export());
  if (certKey !== (await exportPublicKeyPEM(keys.publicKey)))
    throw new Error(
      `error reading CA cert file "${files.certFile}": tls: private key does not match public key`,
    );
  return { der, pem: files.certPEM, certificate, keys };
}

export async function clusterSigningService(
  profile: NamingProfile,
  options: ClusterSigningOptions | undefined,
  /** The cluster CA, created or read when a request is first signed with it. */
  clusterCA: () => Promise<CertificateAuthority>,
): Promise<CertificateSigningService> {
  const specific = Object.entries(options?.signers ?? {}) as [FlagSigner, SigningFiles][];
  if (options?.default !== undefined && specific.length > 0)
    throw new Error('cannot specify default and per controller certs at the same time');
  const names = policyNames(profile).signers;
  const authorities: Partial<
    Record<SignerKind, CertificateAuthority | (() => Promise<CertificateAuthority>)>
  > = {};
  if (specific.length === 0) {
    // The real manager starts the kubelet-serving signer first, so a bad pair is reported under its name.
    const ca =
      options?.default === undefined
        ? clusterCA
        : await loadAuthority(options.default).catch(failed(names.kubeletServing));
    for (const kind of Object.values(kinds)) authorities[kind] = ca;
  }
  for (const [flag, files] of specific)
    authorities[kinds[flag]] = await loadAuthority(files).catch(failed(names[kinds[flag]]));
  return certificateSigningService({
    profile,
    authorities,
    ...(options?.durationMs !== undefined ? { durationMs: options.durationMs } : {}),
  });
}

function failed(signerName: string): (e: unknown) => never {
  return (e) => {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`failed to start ${signerName} certificate controller: ${why}`);
  };
}
