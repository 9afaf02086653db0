/**
 * `npx tsx scripts/etcd-cluster.ts [--dir DIR] [--port 6443]`: a local etcd
 * member (Debian's etcd-server, /usr/bin/etcd) and two Node host replicas on
 * it (`--storage etcd --leader-elect`), behind one address: a TCP proxy on
 * `--port` hands each connection to the replicas in turn (TLS passes
 * through; both replicas serve certificates of the one cluster CA kept in
 * etcd). Writes `DIR/kubeconfig` for the proxy, with an admin token both
 * replicas accept (`--token-auth-file`). State lives in `DIR/etcd`, so a
 * second start carries on where the first stopped. Ctrl-C stops everything.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : fallback;
};
const dir = resolve(flag('dir', '.etcd-cluster'));
const port = Number(flag('port', '6443'));
const etcdBinary = process.env['ETCD_BINARY'] ?? '/usr/bin/etcd';
const clientUrl = 'http://127.0.0.1:2379';
const replicaPorts = [port + 1, port + 2];
const children: ChildProcess[] = [];

function start(name: string, command: string, commandArgs: string[]): ChildProcess {
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code) => {
    if (!stopping) {
      console.error(`${name} exited (${code}); stopping`);
      stop();
    }
  });
  children.push(child);
  return child;
}

let stopping = false;
function stop(): void {
  stopping = true;
  for (const child of children.reverse()) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 500).unref();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not come up`);
}

async function main(): Promise<void> {
  if (!existsSync(etcdBinary)) throw new Error(`no etcd at ${etcdBinary}: apt-get install etcd-server`);
  mkdirSync(dir, { recursive: true });
  const tokenFile = join(dir, 'tokens.csv');
  if (!existsSync(tokenFile))
    writeFileSync(
      tokenFile,
      `${randomBytes(24).toString('base64url')},cluster-admin,cluster-admin,"system:masters"\n`,
    );
  const token = readFileSync(tokenFile, 'utf8').split(',')[0] as string;

  start('etcd', etcdBinary, [
    '--name=orch',
    `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    '--listen-peer-urls=http://127.0.0.1:2380',
    '--initial-advertise-peer-urls=http://127.0.0.1:2380',
    '--initial-cluster=orch=http://127.0.0.1:2380',
    '--log-level=warn',
  ]);
  await waitFor(async () => (await fetch(`${clientUrl}/health`)).ok, 'etcd');

  const kubeconfig = join(dir, 'replica.kubeconfig');
  for (const [i, replicaPort] of replicaPorts.entries()) {
    start(`replica ${i + 1}`, 'npm', [
      'run',
      'serve',
      '--',
      '--storage=etcd',
      `--etcd-servers=${clientUrl}`,
      '--leader-elect',
      `--secure-port=${replicaPort}`,
      `--token-auth-file=${tokenFile}`,
      ...(i === 0 ? [`--kubeconfig=${kubeconfig}`] : []),
    ]);
    // One at a time: the first creates the cluster's keys and CA in etcd, the second finds them.
    await waitFor(
      () =>
        new Promise((ok) => {
          const socket = connect(replicaPort, '127.0.0.1', () => {
            socket.destroy();
            ok(true);
          }).on('error', () => ok(false));
        }),
      `replica ${i + 1}`,
    );
  }

  let next = 0;
  createServer((client) => {
    const target = replicaPorts[next++ % replicaPorts.length] as number;
    const upstream = connect(target, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  }).listen(port, '127.0.0.1');

  await waitFor(async () => existsSync(kubeconfig), 'the kubeconfig');
  const config = parse(readFileSync(kubeconfig, 'utf8')) as {
    clusters: Array<{ cluster: { server: string } }>;
    users: Array<{ name: string; user: Record<string, unknown> }>;
  };
  for (const cluster of config.clusters) cluster.cluster.server = `https://127.0.0.1:${port}`;
  config.users = [{ name: 'cluster-admin', user: { token } }];
  const contexts = (
    config as unknown as { contexts: Array<{ name: string; context: Record<string, string> }> }
  ).contexts;
  const first = contexts[0];
  if (first) {
    first.context['user'] = 'cluster-admin';
    (config as unknown as { contexts: unknown[] }).contexts = [first];
    (config as unknown as { 'current-context': string })['current-context'] = first.name;
  }
  writeFileSync(join(dir, 'kubeconfig'), stringify(config));
  console.log(
    `etcd at ${clientUrl}; replicas on ${replicaPorts.join(' and ')}; one address https://127.0.0.1:${port}\n` +
      `kubectl --kubeconfig ${join(dir, 'kubeconfig')} get ns`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  stop();
});
