/**
 * The Node host as a bench's separate server process: `npm run serve`'s
 * host with the bench floor on (`x-bench-floor: 1` requests answered by the
 * host's trivial handler), started on a free port with the given
 * kubeconfig; prints the same ready line and stops on SIGTERM.
 */

import { startNodeHost } from '../src/hosts/node/host';

async function main(): Promise<void> {
  const kubeconfig = process.argv[2];
  const storage = (process.argv[3] ?? 'memory') as 'memory' | 'dexie';
  const host = await startNodeHost({ port: 0, kubeconfig, storage, benchFloor: true });
  process.stdout.write(`bench server listening on ${host.url}\n`);
  process.once('SIGTERM', () => {
    void host.close().then(() => process.exit(0));
  });
}

void main();
