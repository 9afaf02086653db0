/**
 * `npm run kubectl -- ARGS`: kubectl over this project's client, in Node.
 * Reads the kubeconfig from `--kubeconfig`, KUBECONFIG or ~/.kube/config,
 * standard input for `-f -`, prints to the process's streams, stops a
 * watch on Ctrl-C and exits with kubectl's exit code.
 */

import { runNodeKubectl } from './run';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  interrupt.abort();
});

const code = await runNodeKubectl(process.argv.slice(2), {
  cwd: process.env['INIT_CWD'] ?? process.cwd(),
  env: process.env,
  stdin: readStdin,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: interrupt.signal,
});
// Let the streams drain, then leave (keep-alive sockets must not hold the process open).
process.stdout.write('', () => process.exit(code));
