/**
 * The controller manager's certificate signing flags, which the Node host
 * takes because the CSR controllers run in its process:
 * `--cluster-signing-cert-file`/`--cluster-signing-key-file` (one CA for
 * every built-in signer), the per-signer pairs
 * (`--cluster-signing-kubelet-serving-cert-file`, …), and
 * `--cluster-signing-duration` (a Go duration, default `8760h0m0s`). Files
 * are read here; pairs must be complete and the single pair excludes the
 * per-signer ones, with the real option validation's messages.
 */

import { parseGoDuration } from '../../../machinery/go-duration';
import type { ClusterSigningOptions, SigningFiles } from '../../../server/options';

const perSigner = {
  kubeletServing: 'cluster-signing-kubelet-serving',
  kubeletClient: 'cluster-signing-kubelet-client',
  kubeApiserverClient: 'cluster-signing-kube-apiserver-client',
  legacyUnknown: 'cluster-signing-legacy-unknown',
} as const;

export const clusterSigningFlagKinds = {
  'cluster-signing-cert-file': 'string',
  'cluster-signing-key-file': 'string',
  'cluster-signing-duration': 'string',
  'cluster-signing-kubelet-serving-cert-file': 'string',
  'cluster-signing-kubelet-serving-key-file': 'string',
  'cluster-signing-kubelet-client-cert-file': 'string',
  'cluster-signing-kubelet-client-key-file': 'string',
  'cluster-signing-kube-apiserver-client-cert-file': 'string',
  'cluster-signing-kube-apiserver-client-key-file': 'string',
  'cluster-signing-legacy-unknown-cert-file': 'string',
  'cluster-signing-legacy-unknown-key-file': 'string',
} as const;

type Strings = Partial<Record<string, string>>;
type Read = (path: string, context: string) => string;

function pair(strings: Strings, prefix: string, read: Read): { files?: SigningFiles; error?: string } {
  const certFile = strings[`${prefix}-cert-file`] ?? '';
  const keyFile = strings[`${prefix}-key-file`] ?? '';
  if (certFile === '' && keyFile === '') return {};
  if (certFile === '' || keyFile === '')
    return { error: 'cannot specify key without cert or cert without key' };
  return {
    files: {
      certFile,
      keyFile,
      certPEM: read(certFile, `error reading CA cert file "${certFile}": `),
      keyPEM: read(keyFile, `error reading CA key file "${keyFile}": `),
    },
  };
}

/**
 * The options from the flags' values, and the validation errors. A duration pflag cannot parse is
 * thrown at once through `fail`, as pflag refuses it before any validation runs.
 */
export function clusterSigningOf(
  strings: Strings,
  read: Read,
  fail: (message: string) => Error,
): { options?: ClusterSigningOptions; errors: string[] } {
  const errors: string[] = [];
  const options: ClusterSigningOptions = {};
  const duration = strings['cluster-signing-duration'];
  if (duration !== undefined) {
    try {
      options.durationMs = parseGoDuration(duration);
    } catch (e) {
      throw fail(
        `invalid argument "${duration}" for "--cluster-signing-duration" flag: ${(e as Error).message}`,
      );
    }
  }

  const single = pair(strings, 'cluster-signing', read);
  if (single.error !== undefined) errors.push(`"cluster-signing": ${single.error}`);
  if (single.files !== undefined) options.default = single.files;
  const signers: NonNullable<ClusterSigningOptions['signers']> = {};
  for (const [key, prefix] of Object.entries(perSigner) as [keyof typeof perSigner, string][]) {
    const p = pair(strings, prefix, read);
    if (p.error !== undefined) errors.push(`"${prefix}": ${p.error}`);
    if (p.files !== undefined) signers[key] = p.files;
  }
  if (Object.keys(signers).length > 0) {
    if (options.default !== undefined)
      errors.push(
        'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time',
      );
    options.signers = signers;
  }
  return { ...(Object.keys(options).length > 0 ? { options } : {}), errors };
}
