/**
 * What to type on the Node host (`npm run serve`) to use a certificate or
 * token from here with kubectl: a kubeconfig `users` entry with the
 * certificate and key embedded (`client-certificate-data`,
 * `client-key-data`), the commands that write it, and the same CSR flow
 * done with openssl and kubectl against the Node host itself. The Node host
 * has its own cluster CA (its state is separate from this browser's), so a
 * certificate issued here authenticates there only when the host is also
 * given this browser's CA with `--client-ca-file`.
 */

import type { NodeHostTarget } from '../lib/commands';
import { encodeBase64Text } from '../../machinery/base64-text';

/** `'text'` for a POSIX shell. */
function quote(text: string): string {
  return /^[A-Za-z0-9_./:=@-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A file name from a user name (`system:node:n1` → `system-node-n1`). */
export function fileBase(user: string): string {
  return user.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'user';
}

/** The kubeconfig `users:` entry for a client certificate. */
export function kubeconfigCertificateUser(user: string, certificatePEM: string, keyPEM: string): string {
  return [
    'users:',
    `- name: ${JSON.stringify(user)}`,
    '  user:',
    `    client-certificate-data: ${encodeBase64Text(certificatePEM)}`,
    `    client-key-data: ${encodeBase64Text(keyPEM)}`,
  ].join('\n');
}

/** The kubeconfig `users:` entry for a bearer token. */
export function kubeconfigTokenUser(user: string, token: string): string {
  return ['users:', `- name: ${JSON.stringify(user)}`, '  user:', `    token: ${token}`].join('\n');
}

function heredoc(file: string, text: string): string {
  return `cat > ${quote(file)} <<'EOF'\n${text.trimEnd()}\nEOF`;
}

/** Commands that make the Node host accept this certificate and act as its user with kubectl. */
export function certificateCommands(
  target: NodeHostTarget,
  user: string,
  certificatePEM: string,
  keyPEM: string,
  caPEM: string | undefined,
): string {
  const base = fileBase(user);
  const kc = `kubectl --kubeconfig ${quote(target.kubeconfig)}`;
  return [
    ...(caPEM === undefined
      ? []
      : [
          "# The Node host trusts its own CA; start it trusting this browser's cluster CA as well:",
          heredoc('browser-ca.crt', caPEM),
          `npm run serve -- --client-ca-file browser-ca.crt --kubeconfig ${quote(target.kubeconfig)}`,
          '',
        ]),
    '# The certificate and its key (the key was made in this page and has not left it):',
    heredoc(`${base}.crt`, certificatePEM),
    heredoc(`${base}.key`, keyPEM),
    `${kc} config set-credentials ${quote(user)} --client-certificate=${base}.crt --client-key=${base}.key --embed-certs`,
    `${kc} --user ${quote(user)} auth whoami`,
  ].join('\n');
}

/** The whole flow with openssl and kubectl on the Node host (its own CA signs). */
export function nodeHostCsrFlow(
  target: NodeHostTarget,
  apiVersion: string,
  request: { name: string; user: string; groups: string[]; signerName: string; usages: string[] },
): string {
  const base = fileBase(request.user);
  const kc = `kubectl --kubeconfig ${quote(target.kubeconfig)}`;
  const subject = [...request.groups.map((g) => `/O=${g}`), `/CN=${request.user}`].join('');
  return [
    `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ${base}.key`,
    `openssl req -new -key ${base}.key -subj ${quote(subject)} -out ${base}.csr`,
    `${kc} create -f - <<EOF`,
    `apiVersion: ${apiVersion}`,
    'kind: CertificateSigningRequest',
    'metadata:',
    `  name: ${request.name}`,
    'spec:',
    `  request: $(base64 -w0 < ${base}.csr)`,
    `  signerName: ${request.signerName}`,
    '  usages:',
    ...request.usages.map((u) => `  - ${u}`),
    'EOF',
    `${kc} certificate approve ${quote(request.name)}`,
    `${kc} get csr ${quote(request.name)} -o jsonpath='{.status.certificate}' | base64 -d > ${base}.crt`,
    `${kc} config set-credentials ${quote(request.user)} --client-certificate=${base}.crt --client-key=${base}.key --embed-certs`,
    `${kc} --user ${quote(request.user)} auth whoami`,
  ].join('\n');
}

/** `kubectl create token` with the same audiences, lifetime and bound pod. */
export function createTokenCommand(
  target: NodeHostTarget,
  namespace: string,
  account: string,
  audiences: string[],
  expirationSeconds: number | undefined,
  boundPod: string | undefined,
): string {
  const flags = [
    `-n ${quote(namespace)}`,
    ...audiences.map((a) => `--audience ${quote(a)}`),
    ...(expirationSeconds === undefined ? [] : [`--duration ${expirationSeconds}s`]),
    ...(boundPod === undefined ? [] : ['--bound-object-kind Pod', `--bound-object-name ${quote(boundPod)}`]),
  ];
  return `kubectl --kubeconfig ${quote(target.kubeconfig)} create token ${quote(account)} ${flags.join(' ')}`;
}
