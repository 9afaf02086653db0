/**
 * The kubeconfig the Node host writes with `--kubeconfig FILE`: one
 * cluster (this server over plain HTTP; `insecure-skip-tls-verify` so that
 * client libraries which refuse plain-http clusters otherwise accept it),
 * one administrator user with a bearer token the server honours, and a
 * current context that selects them.
 */

import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export function kubeconfigYaml(server: string, token: string, name = 'orch-sandbox'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: `${name}-admin`, user: { token } }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin`, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, server: string, token: string): Promise<void> {
  await writeFile(path, kubeconfigYaml(server, token), { mode: 0o600 });
}
