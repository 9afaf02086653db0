/**
 * `npm run serve -- [--port N] [--host H] [--profile orch|kubernetes]
 * [--kubeconfig FILE] [--compaction-interval 5m] [--runtime-config ...]
 * [--feature-gates ...] [--storage dexie|memory]`: starts the Node host,
 * prints one line with its URL when ready, and shuts down cleanly on
 * SIGTERM or SIGINT.
 */

import { parseHostArgs } from './args';
import { startNodeHost } from './host';

async function main(): Promise<void> {
  let options;
  try {
    options = parseHostArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const host = await startNodeHost({ port: 6443, ...options });
  const profile = options.profile ?? 'orch';
  const kubeconfig = options.kubeconfig !== undefined ? ` (kubeconfig: ${options.kubeconfig})` : '';
  process.stdout.write(
    `Orch Sandbox API server (profile ${profile}) listening on ${host.url}${kubeconfig}\n`,
  );
  const stop = (): void => {
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
