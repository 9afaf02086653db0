/**
 * The Node host's command line as a user runs it (`npm run serve -- ...`,
 * here `tsx src/hosts/node/main.ts` directly): `--port 0` picks a free port,
 * one line with the URL is printed when ready, `--kubeconfig` writes a
 * working kubeconfig, bad flags fail with a message, and SIGTERM shuts the
 * server down cleanly.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';

function serve(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function firstLine(child: ChildProcess): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing: ${out}`)));
  });
}

it(
  'prints its URL when ready, writes a kubeconfig that reaches it as admin, and stops on SIGTERM',
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-cli-'));
    const kubeconfig = join(dir, 'config');
    const child = serve([
      '--port',
      '0',
      '--profile',
      'kubernetes',
      '--kubeconfig',
      kubeconfig,
      '--compaction-interval',
      '30s',
    ]);
    const line = await firstLine(child);
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    expect(url).toBeDefined();
    const config = parse(readFileSync(kubeconfig, 'utf8')) as {
      clusters: { cluster: { server: string; 'insecure-skip-tls-verify': boolean } }[];
      users: { user: { token: string } }[];
      'current-context': string;
    };
    expect(config.clusters[0]?.cluster.server).toBe(url);
    expect(config.clusters[0]?.cluster['insecure-skip-tls-verify']).toBe(true);
    const token = config.users[0]?.user.token ?? '';
    expect(token.length).toBeGreaterThan(20);
    const ns = await fetch(`${url}/api/v1/namespaces`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await ns.json()) as { items: { metadata: { name: string } }[] };
    expect(body.items.map((i) => i.metadata.name).sort()).toEqual(['default', 'kube-public', 'kube-system']);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  },
);

it('rejects bad flags with a message and exit code 2', { timeout: 30_000 }, async () => {
  const child = serve(['--profile', 'nope']);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  expect(code).toBe(2);
  expect(err).toContain('invalid --profile "nope"');
});
