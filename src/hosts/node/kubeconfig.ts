/**
 * The kubeconfig the Node host writes with `--kubeconfig FILE`: one
 * cluster (this server over HTTPS, trusted through the cluster CA as
 * `certificate-authority-data`), one user and one context per built-in
 * identity (context and user named after the identity: `admin` with the
 * administrator's bearer token, `admin-cert` with a client certificate and
 * key, `alice` with no rights, `service-account` with a service-account token),
 * and `admin` as the current context — so `kubectl --context alice ...`
 * shows the same request as someone else without editing files.
 */

import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

/** A user the kubeconfig offers: a bearer token or a client certificate and key (PEM). */
export interface KubeconfigUser {
  name: string;
  token?: string;
  clientCertificatePEM?: string;
  clientKeyPEM?: string;
}

export interface KubeconfigSpec {
  server: string;
  /** PEM of the CA that issued the serving certificate; absent for a plain-HTTP server. */
  caPEM?: string;
  users: KubeconfigUser[];
  /** The identity of the current context; default the first user. */
  current?: string;
  clusterName?: string;
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export function kubeconfigYaml(spec: KubeconfigSpec): string {
  const clusterName = spec.clusterName ?? 'orch-sandbox';
  const cluster: Record<string, unknown> = { server: spec.server };
  if (spec.caPEM !== undefined) cluster['certificate-authority-data'] = b64(spec.caPEM);
  // A plain-HTTP server has no certificate; some client libraries refuse such a cluster without this.
  else cluster['insecure-skip-tls-verify'] = true;
  const users = spec.users.map((u) => {
    const user: Record<string, string> = {};
    if (u.token !== undefined) user.token = u.token;
    if (u.clientCertificatePEM !== undefined && u.clientKeyPEM !== undefined) {
      user['client-certificate-data'] = b64(u.clientCertificatePEM);
      user['client-key-data'] = b64(u.clientKeyPEM);
    }
    return { name: u.name, user };
  });
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: clusterName, cluster }],
    users,
    contexts: spec.users.map((u) => ({
      name: u.name,
      context: { cluster: clusterName, user: u.name, namespace: 'default' },
    })),
    'current-context': spec.current ?? spec.users[0]?.name ?? '',
    preferences: {},
  });
}

/** Written owner-only: it holds credentials. */
export async function writeKubeconfig(path: string, spec: KubeconfigSpec): Promise<void> {
  await writeFile(path, kubeconfigYaml(spec), { mode: 0o600 });
}
