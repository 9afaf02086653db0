/**
 * `npm run serve -- [flags]`: starts the Node host over HTTPS (port 6443,
 * the real server's default), prints one line with its URL when ready, and
 * shuts down cleanly on SIGTERM or SIGINT. Flags are the real
 * kube-apiserver's where it has them (see args.ts and the README); a bad
 * command line prints `Error: <the real server's message>` and exits with
 * 1, as `kube-apiserver` does.
 */

import { CommandFailed, FlagError, HelpRequested, hostFlags, parseHostArgs } from './args';
import { helpText } from './flag-help';
import { klogCommandFailed } from './klog-line';
import { startNodeHost, type NodeHostOptions } from './host';

async function main(): Promise<void> {
  let options: NodeHostOptions;
  try {
    options = parseHostArgs(process.argv.slice(2), undefined, (warning) =>
      process.stderr.write(`W ${warning}\n`),
    );
  } catch (e) {
    if (e instanceof HelpRequested) {
      process.stdout.write(helpText(hostFlags));
      process.exit(0);
    }
    // The real server reports these through its logger once flags parsed; cobra prints flag errors plainly.
    if (e instanceof CommandFailed) process.stderr.write(klogCommandFailed(e.message));
    else process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(e instanceof FlagError || e instanceof CommandFailed ? 1 : 2);
  }
  let host;
  try {
    host = await startNodeHost({ port: 6443, ...options });
  } catch (e) {
    // Cannot listen (port in use), cannot issue a certificate: the real server's "command failed" exit.
    process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
  const profile = options.profile ?? 'orch';
  const kubeconfig = options.kubeconfig !== undefined ? ` (kubeconfig: ${options.kubeconfig})` : '';
  process.stdout.write(
    `Orch Sandbox API server (profile ${profile}) listening on ${host.url}${kubeconfig}\n`,
  );
  // SIGTERM is the real server's graceful termination (readyz fails, delay, drain); exit 0 once done.
  const stop = (): void => {
    host.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
