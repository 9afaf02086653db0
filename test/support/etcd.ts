/**
 * Throwaway etcd members for tests and benches: each starts on free ports
 * with its own temporary data directory (fast: `--unsafe-no-fsync` where the
 * installed etcd has it), and is killed and removed afterwards. Tests that
 * need etcd call `etcdSkipReason()` first and skip with that reason when
 * /usr/bin/etcd is missing or cannot start. A member started with `tls`
 * serves its clients over TLS only and asks each for a certificate its CA
 * signed (`--client-cert-auth`), as a production member does; a cluster of
 * several members starts with `startEtcdCluster`.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const etcdBinary = process.env['ETCD_BINARY'] ?? '/usr/bin/etcd';

/** A TLS member's files: its CA (which signs the clients it accepts), its own pair, and a client pair for its health checks. */
export interface EtcdServerTls {
  caFile: string;
  certFile: string;
  keyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

export interface EtcdMember {
  /** The client URL (`http://127.0.0.1:port`, or `https://` with `tls`). */
  url: string;
  dataDir: string;
  /** Kills the member (as a crash would: SIGKILL), keeping its data. */
  kill(): Promise<void>;
  /** Starts the member again on the same ports and data. */
  restart(): Promise<void>;
  /** Kills the member and removes its data. */
  stop(): Promise<void>;
}

let cachedReason: string | undefined | null = null;

/** Why etcd tests cannot run here (undefined: they can). */
export function etcdSkipReason(): string | undefined {
  if (cachedReason !== null) return cachedReason;
  if (!existsSync(etcdBinary))
    cachedReason = `etcd not found at ${etcdBinary} (.ci/run installs etcd-server)`;
  else {
    const version = spawnSync(etcdBinary, ['--version'], { encoding: 'utf8' });
    cachedReason = version.status === 0 ? undefined : `${etcdBinary} --version failed: ${version.stderr}`;
  }
  return cachedReason;
}

function supportsNoFsync(): boolean {
  const help = spawnSync(etcdBinary, ['--help'], { encoding: 'utf8' });
  return `${help.stdout}${help.stderr}`.includes('unsafe-no-fsync');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let noFsync: boolean | undefined;

export async function startEtcd(options: { tls?: EtcdServerTls } = {}): Promise<EtcdMember> {
  return (await startMembers(1, options.tls))[0] as EtcdMember;
}

/** A cluster of `size` members (a host on it takes all their client URLs as its --etcd-servers). */
export async function startEtcdCluster(size: number): Promise<EtcdMember[]> {
  return startMembers(size, undefined);
}

interface MemberPlan {
  name: string;
  dataDir: string;
  clientPort: number;
  peerPort: number;
}

async function startMembers(size: number, tls: EtcdServerTls | undefined): Promise<EtcdMember[]> {
  const reason = etcdSkipReason();
  if (reason) throw new Error(reason);
  noFsync ??= supportsNoFsync();
  const plans: MemberPlan[] = [];
  for (let i = 0; i < size; i++)
    plans.push({
      name: size === 1 ? 'test' : `member-${i}`,
      dataDir: mkdtempSync(join(tmpdir(), 'etcd-test-')),
      clientPort: await freePort(),
      peerPort: await freePort(),
    });
  const initialCluster = plans.map((p) => `${p.name}=http://127.0.0.1:${p.peerPort}`).join(',');
  const members = plans.map((plan) => member(plan, initialCluster, tls));
  // A cluster's members become ready together (a leader needs a quorum), so they start at once.
  try {
    await Promise.all(members.map((m) => m.restart()));
  } catch (error) {
    await Promise.all(members.map((m) => m.stop()));
    throw error;
  }
  return members;
}

function member(plan: MemberPlan, initialCluster: string, tls: EtcdServerTls | undefined): EtcdMember {
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${plan.clientPort}`;
  const peer = `http://127.0.0.1:${plan.peerPort}`;
  const args = [
    `--name=${plan.name}`,
    `--data-dir=${plan.dataDir}`,
    `--listen-client-urls=${url}`,
    `--advertise-client-urls=${url}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=${initialCluster}`,
    '--log-level=error',
    ...(noFsync ? ['--unsafe-no-fsync'] : []),
    ...(tls
      ? [
          '--client-cert-auth',
          `--trusted-ca-file=${tls.caFile}`,
          `--cert-file=${tls.certFile}`,
          `--key-file=${tls.keyFile}`,
        ]
      : []),
  ];
  let child: ChildProcess | undefined;
  const launch = async (): Promise<void> => {
    child = spawn(etcdBinary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    await waitReady(url, child, () => stderr, tls);
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  return {
    url,
    dataDir: plan.dataDir,
    kill,
    restart: launch,
    stop: async () => {
      await kill();
      rmSync(plan.dataDir, { recursive: true, force: true });
    },
  };
}

async function waitReady(
  url: string,
  child: ChildProcess,
  stderr: () => string,
  tls: EtcdServerTls | undefined,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited (${child.exitCode}): ${stderr()}`);
    try {
      if (tls ? await healthyOverTls(url, tls) : (await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`etcd at ${url} did not become ready: ${stderr()}`);
}

/** `/health` with the member's CA and a client certificate (fetch takes neither). */
function healthyOverTls(url: string, tls: EtcdServerTls): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      `${url}/health`,
      {
        ca: readFileSync(tls.caFile),
        cert: readFileSync(tls.clientCertFile),
        key: readFileSync(tls.clientKeyFile),
        agent: false,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    request.on('error', reject);
    request.end();
  });
}
