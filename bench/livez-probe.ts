/**
 * The `/livez` prober of the benches, run as its own process (as the
 * issue's `curl` is): `GET /livez` on one kept-alive TLS connection, one
 * after another with a gap between them, until a line arrives on standard
 * input; then it prints each probe as JSON (`[sent, answered]` in µs of the
 * monotonic clock, which every process on the machine shares) and exits.
 * Probing from the bench's own process measured the bench: reading a 2 MB
 * answer or a thousand watch streams there held the prober's answers for
 * hundreds of milliseconds after the server had sent them.
 *
 *   node --import tsx bench/livez-probe.ts <port> <gapMs>
 */

import { TimedConnection } from './server-process';

const now = (): number => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  const gapMs = Number(process.argv[3] ?? 20);
  const probes: [number, number][] = [];
  let running = true;
  process.stdin.once('data', () => (running = false));
  let c = await TimedConnection.open(port);
  process.stdout.write('ready\n');
  while (running) {
    const sent = now();
    try {
      await c.request('GET /livez HTTP/1.1\r\nHost: x\r\n\r\n');
      probes.push([sent, now()]);
    } catch (e) {
      // The server closed the connection: say so, and go on probing on a new one.
      process.stderr.write(`/livez probe: ${e instanceof Error ? e.message : String(e)}; reconnecting\n`);
      c.close();
      c = await TimedConnection.open(port);
    }
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  c.close();
  process.stdout.write(`${JSON.stringify(probes)}\n`);
  process.exit(0);
}

void main();
