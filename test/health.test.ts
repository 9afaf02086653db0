/**
 * `/healthz`, `/livez` and `/readyz` over HTTPS as the real v1.27 server
 * answers them: the named checks in order, `ok` and `?verbose` bodies,
 * `?exclude` with its warn line, per-check paths (names with `/`), the
 * plain-text 404, a failing store (`etcd` on an etcd host whose member is
 * killed), the flags, and the SIGTERM sequence of the Node host's command
 * line: readyz fails at once, an in-flight request finishes, new requests
 * get 429 with `--shutdown-send-retry-after`, exit code 0, and the
 * post-start hooks a refused bootstrap (AlwaysDeny) leaves unfinished. The
 * livez grace period (not observable over HTTP: the host listens once
 * start-up is done) is covered beside the code, in
 * src/server/health/checks.test.ts.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { etcdSkipReason, startEtcd, type EtcdMember } from './support/etcd';
import { FlagError, parseHostArgs } from '../src/hosts/node/args';
import type { NodeHostOptions } from '../src/hosts/node/host';
import { awaitedLater } from './support/awaited-later';

const readyzChecks = [
  'ping',
  'log',
  'etcd',
  'etcd-readiness',
  'informer-sync',
  'poststarthook/start-kube-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/storage-object-count-tracker-hook',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/bootstrap-controller',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
  'shutdown',
];
const livezChecks = readyzChecks.filter((c) => !['etcd-readiness', 'informer-sync', 'shutdown'].includes(c));

const verbose = (endpoint: string, names: string[]) =>
  `${names.map((n) => `[+]${n} ok`).join('\n')}\n${endpoint} check passed\n`;

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
});

afterAll(async () => {
  await host?.close();
});

describe('health endpoints', () => {
  const cases: { path: string; status: number; body: string }[] = [
    { path: '/healthz', status: 200, body: 'ok' },
    { path: '/livez', status: 200, body: 'ok' },
    { path: '/readyz', status: 200, body: 'ok' },
    { path: '/healthz?verbose', status: 200, body: verbose('healthz', livezChecks) },
    { path: '/livez?verbose=1', status: 200, body: verbose('livez', livezChecks) },
    { path: '/readyz?verbose', status: 200, body: verbose('readyz', readyzChecks) },
    // Excluding without verbose still answers the short body.
    { path: '/readyz?exclude=etcd', status: 200, body: 'ok' },
    { path: '/readyz?exclude=nope', status: 200, body: 'ok' },
    {
      path: '/readyz?verbose&exclude=etcd&exclude=shutdown',
      status: 200,
      body: `${readyzChecks
        .map((n) => (n === 'etcd' || n === 'shutdown' ? `[+]${n} excluded: ok` : `[+]${n} ok`))
        .join('\n')}\nreadyz check passed\n`,
    },
    {
      path: '/livez?verbose&exclude=zeta&exclude=alpha&exclude=ping',
      status: 200,
      body: `${livezChecks
        .map((n) => (n === 'ping' ? '[+]ping excluded: ok' : `[+]${n} ok`))
        .join(
          '\n',
        )}\nwarn: some health checks cannot be excluded: no matches for "alpha","zeta"\nlivez check passed\n`,
    },
    { path: '/readyz/ping', status: 200, body: 'ok' },
    { path: '/readyz/etcd', status: 200, body: 'ok' },
    { path: '/readyz/shutdown', status: 200, body: 'ok' },
    { path: '/readyz/informer-sync', status: 200, body: 'ok' },
    { path: '/readyz/poststarthook/rbac/bootstrap-roles', status: 200, body: 'ok' },
    { path: '/livez/autoregister-completion', status: 200, body: 'ok' },
    { path: '/healthz/poststarthook/crd-informer-synced', status: 200, body: 'ok' },
    { path: '/readyz/nope', status: 404, body: '404 page not found\n' },
    // Each endpoint has its own set: shutdown is a readyz check only.
    { path: '/livez/shutdown', status: 404, body: '404 page not found\n' },
    { path: '/healthz/etcd-readiness', status: 404, body: '404 page not found\n' },
  ];

  it.each(cases)('GET $path → $status', async ({ path, status, body }) => {
    const r = await host.request('GET', path);
    expect(r.status).toBe(status);
    expect(r.text).toBe(body);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers anonymous callers the paths system:public-info-viewer names, not the per-check ones', async () => {
    for (const path of ['/healthz', '/livez', '/readyz?verbose'])
      expect((await host.request('GET', path, { as: 'anonymous' })).status, path).toBe(200);
    for (const path of ['/readyz/etcd', '/livez/ping'])
      expect((await host.request('GET', path, { as: 'anonymous' })).status, path).toBe(403);
  });
});

describe('a bootstrap that admission refuses (AlwaysDeny)', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ admission: { enablePlugins: ['AlwaysDeny'], disablePlugins: [] } });
  });
  afterAll(() => host.close());

  it('still serves, and readyz names the post-start hooks that could not finish', async () => {
    const r = await host.request('GET', '/readyz?verbose');
    expect(r.status).toBe(500);
    for (const hook of [
      'poststarthook/rbac/bootstrap-roles',
      'poststarthook/scheduling/bootstrap-system-priority-classes',
      'autoregister-completion',
    ])
      expect(r.text).toContain(`[-]${hook} failed: reason withheld`);
    expect(r.text).toContain('[+]etcd ok');
    expect(r.text.trimEnd().endsWith('readyz check failed')).toBe(true);
    expect((await host.request('GET', '/livez')).status).toBe(500);
  });
});

describe('the health and shutdown flags', () => {
  const cases: { args: string[]; want?: Partial<NodeHostOptions>; error?: string }[] = [
    { args: ['--livez-grace-period=90s'], want: { livezGracePeriodMs: 90_000 } },
    { args: ['--livez-grace-period', '0'], want: { livezGracePeriodMs: 0 } },
    { args: ['--livez-grace-period=-1s'], error: '--livez-grace-period can not be a negative value' },
    {
      args: ['--livez-grace-period=soon'],
      error: 'invalid argument "soon" for "--livez-grace-period" flag: time: invalid duration "soon"',
    },
    { args: ['--shutdown-delay-duration=5s'], want: { shutdownDelayMs: 5000 } },
    { args: ['--shutdown-delay-duration=-5s'], error: '--shutdown-delay-duration can not be negative value' },
    { args: ['--shutdown-send-retry-after'], want: { shutdownSendRetryAfter: true } },
    { args: ['--shutdown-send-retry-after=false'], want: { shutdownSendRetryAfter: false } },
  ];

  it.each(cases)('$args', ({ args, want, error }) => {
    if (error !== undefined) expect(() => parseHostArgs(args)).toThrow(new FlagError(error));
    else expect(parseHostArgs(args)).toMatchObject(want ?? {});
  });
});

const etcdSkip = etcdSkipReason();
if (etcdSkip) console.log(`SKIP the etcd check against a killed member: ${etcdSkip}`);

describe.skipIf(etcdSkip !== undefined)('a store that is down', () => {
  let member: EtcdMember;
  let onEtcd: TestHost;

  beforeAll(async () => {
    member = await startEtcd();
    onEtcd = await startTestHost({ storage: 'etcd', etcd: { servers: [member.url] } });
  });

  afterAll(async () => {
    await onEtcd?.close();
    await member?.stop();
  });

  it('fails etcd (and etcd-readiness) until the member is back', async () => {
    expect((await onEtcd.request('GET', '/readyz/etcd')).text).toBe('ok');
    await member.kill();
    const ready = await onEtcd.request('GET', '/readyz');
    expect(ready.status).toBe(500);
    expect(ready.text).toContain(
      '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n',
    );
    expect(ready.text.endsWith('readyz check failed\n')).toBe(true);
    const live = await onEtcd.request('GET', '/livez');
    expect(live.status).toBe(500);
    expect(live.text).toContain('[-]etcd failed: reason withheld\n');
    const one = await onEtcd.request('GET', '/livez/etcd');
    expect(one.status).toBe(500);
    expect(one.text).toMatch(/^internal server error: error getting data from etcd: .+\n$/);
    await member.restart();
    const deadline = Date.now() + 20_000;
    let again = await onEtcd.request('GET', '/readyz');
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      again = await onEtcd.request('GET', '/readyz');
    }
    expect(again.text).toBe('ok');
  });
});

// Each case starts `main.ts` in its own process (tsx start-up is most of the time on a busy machine).
describe('SIGTERM on the Node host', { timeout: 90_000 }, () => {
  function serve(args: string[]): ChildProcess {
    return spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  async function firstLine(child: ChildProcess): Promise<void> {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
  }

  it('fails readyz at once, serves through the delay, refuses new requests with 429, drains, exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sigterm-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const child = serve([
      '--port=0',
      `--kubeconfig=${kubeconfig}`,
      '--shutdown-delay-duration=2s',
      '--shutdown-send-retry-after',
    ]);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await firstLine(child);
      const config = parse(readFileSync(kubeconfig, 'utf8'));
      const server: string = config.clusters[0].cluster.server;
      const ca = Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
      const token: string = config.users.find((u: { name: string }) => u.name === 'admin').user.token;
      const dispatcher = new Agent({ connect: { ca } });
      const get = (path: string, headers: Record<string, string> = {}) =>
        fetch(`${server}${path}`, {
          headers: { authorization: `Bearer ${token}`, ...headers },
          dispatcher,
        } as RequestInit);
      expect((await get('/readyz')).status).toBe(200);
      // A watch is open through the whole sequence: it is closed at the end, not waited for.
      const watch = await get('/api/v1/namespaces/default/configmaps?watch=1');
      expect(watch.status).toBe(200);

      child.kill('SIGTERM');
      // In flight across the end of the delay: a list from a version the server never reaches waits 3 s.
      const inflight = awaitedLater(
        get('/api/v1/namespaces?resourceVersion=999999999&resourceVersionMatch=NotOlderThan'),
      );
      let ready = await get('/readyz?verbose');
      const deadline = Date.now() + 5000;
      while (ready.status === 200 && Date.now() < deadline) ready = await get('/readyz?verbose');
      expect(ready.status).toBe(500);
      expect(await ready.text()).toContain('[-]shutdown failed: reason withheld\nreadyz check failed\n');
      // During the delay the server still serves; livez passes.
      expect((await get('/livez')).status).toBe(200);
      expect((await get('/api/v1/namespaces')).status).toBe(200);
      // After the delay, until that request is answered: new requests are refused with 429, health probes are not.
      let refused = await get('/api/v1/namespaces');
      const until = Date.now() + 10_000;
      while (refused.status === 200 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        refused = await get('/api/v1/namespaces');
      }
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.text()).toBe('The apiserver is shutting down, please try again later.\n');
      expect((await get('/livez')).status).toBe(200);
      // The in-flight request is answered, not cut off (the real 504 for a version never reached).
      const answered = await inflight;
      expect(answered.status).toBe(504);
      expect(((await answered.json()) as { reason?: string }).reason).toBe('Timeout');
      expect(await exited).toBe(0);
      await dispatcher.close().catch(() => undefined);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('without a delay: exits 0 after an in-flight request finishes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-sigterm-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const child = serve(['--port=0', `--kubeconfig=${kubeconfig}`]);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await firstLine(child);
      const config = parse(readFileSync(kubeconfig, 'utf8'));
      const server: string = config.clusters[0].cluster.server;
      const ca = Buffer.from(config.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
      const token: string = config.users.find((u: { name: string }) => u.name === 'admin').user.token;
      const dispatcher = new Agent({ connect: { ca } });
      // A list from a resourceVersion the server has not reached waits (up to 3 s) for it: in flight at SIGTERM.
      const inflight = awaitedLater(
        fetch(`${server}/api/v1/namespaces?resourceVersion=999999999&resourceVersionMatch=NotOlderThan`, {
          headers: { authorization: `Bearer ${token}` },
          dispatcher,
        } as RequestInit),
      );
      // Well inside its 3 s wait, so it is in flight when the signal lands.
      await new Promise((r) => setTimeout(r, 1000));
      child.kill('SIGTERM');
      const answer = await inflight;
      // It was answered (not cut off): the real server's answer to a version it never reached.
      expect(answer.status).toBe(504);
      expect(await exited).toBe(0);
      await dispatcher.close().catch(() => undefined);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
