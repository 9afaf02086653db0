/**
 * The simulated cluster with the real kubectl v1.27 against the Node host
 * (kubernetes profile): `get nodes`, `logs` with its options, `exec` over
 * SPDY (output, stdin, exit codes, a container by name), `cordon` and
 * `drain` through the eviction API, and the tutorial's Deployment flow
 * (create, get pods, rollout status/history/undo, set image, scale).
 * Skipped, with the reason printed, on a machine without `kubectl.1.27`.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { findVersionedKubectl, kubectl, type KubectlResult } from './support/kubectl';
import {
  advance,
  createPod,
  isRunningReady,
  nodesReady,
  pod,
  podWhen,
  until,
  type Obj,
} from './support/simulation';
import { awaitedLater } from './support/awaited-later';

const binary = findVersionedKubectl('1.27');
if (binary === undefined)
  console.warn('SKIP: kubectl.1.27 is not installed: the kubectl simulation scenarios are skipped');

let host: TestHost;
const k = (args: string[], input?: string): Promise<KubectlResult> =>
  kubectl(host.kubeconfigPath, args, input, binary);

describe.skipIf(binary === undefined)('kubectl v1.27 and the simulated cluster', () => {
  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes', simulation: { settings: { speed: 'instant' } } });
    await nodesReady(host);
    await createPod(
      host,
      pod('talker', {
        containers: [
          {
            name: 'main',
            image: 'busybox',
            command: ['sh', '-c', 'i=1; while true; do echo "tick $i"; i=$((i+1)); sleep 100; done'],
          },
          { name: 'side', image: 'nginx:1.25' },
        ],
      }),
    );
    await podWhen(host, 'talker', 'Running', isRunningReady);
  });
  afterAll(async () => host?.close());

  it('get nodes shows three Ready nodes with their version', async () => {
    const r = await k(['get', 'nodes']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).filter((_, i) => i !== 3))).toEqual([
      ['node-1', 'Ready', '<none>', 'v1.27.16'],
      ['node-2', 'Ready', '<none>', 'v1.27.16'],
      ['node-3', 'Ready', '<none>', 'v1.27.16'],
    ]);
  });

  it('logs: a container by name, --tail, --timestamps, --since', async () => {
    // Ticks at 0, 100 and 200 s on the server's clock.
    await advance(host, '250s');
    const all = await k(['logs', 'talker', '-c', 'main']);
    expect(all.stdout).toBe('tick 1\ntick 2\ntick 3\n');
    const tail = await k(['logs', 'talker', '-c', 'main', '--tail=1', '--timestamps']);
    expect(tail.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z tick 3\n$/);
    const since = await k(['logs', 'talker', '-c', 'main', '--since=120s']);
    expect(since.stdout).toBe('tick 3\n');
    const nginx = await k(['logs', 'talker', '-c', 'side', '--tail=1']);
    expect(nginx.stdout).toMatch(/\[notice\] 1#1: start worker process 29\n$/);
    // Without -c kubectl picks the first container, and says so.
    const first = await k(['logs', 'talker']);
    expect(first.stdout).toBe('tick 1\ntick 2\ntick 3\n');
    expect(first.stderr).toBe('Defaulted container "main" out of: main, side\n');
  });

  it('logs -f follows until the container ends, on the server clock', async () => {
    await createPod(
      host,
      pod('short', {
        restartPolicy: 'Never',
        containers: [
          { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo start; sleep 30; echo end'] },
        ],
      }),
    );
    await podWhen(host, 'short', 'Running', (p) => p.status?.phase === 'Running');
    const following = awaitedLater(k(['logs', '-f', 'short']));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await advance(host, '30s');
    expect((await following).stdout).toBe('start\nend\n');
  });

  it('logs --previous of a restarted container', async () => {
    await createPod(
      host,
      pod('flaky', {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo run; exit 2'] }],
      }),
    );
    await podWhen(
      host,
      'flaky',
      'restarted',
      (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
    );
    const previous = await k(['logs', 'flaky', '--previous']);
    expect(previous.stdout).toBe('run\n');
  });

  it('exec runs the tiny shell in the container, with the exit code, stdin and the environment', async () => {
    const out = await k([
      'exec',
      'talker',
      '-c',
      'main',
      '--',
      'sh',
      '-c',
      'echo $HOSTNAME; ls /var/run/secrets/kubernetes.io/serviceaccount',
    ]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe('talker\nca.crt\nnamespace\ntoken\n');
    const failed = await k(['exec', 'talker', '-c', 'main', '--', 'sh', '-c', 'echo no >&2; exit 3']);
    expect(failed.code).toBe(3);
    expect(failed.stderr).toBe('no\ncommand terminated with exit code 3\n');
    const piped = await k(['exec', '-i', 'talker', '-c', 'main', '--', 'sh'], 'echo piped; hostname\n');
    expect(piped.stdout).toBe('piped\ntalker\n');
    const wc = await k(['exec', '-i', 'talker', '-c', 'main', '--', 'wc', '-l'], 'a\nb\nc\n');
    expect(wc.stdout).toBe('3\n');
    const missing = await k(['exec', 'talker', '-c', 'main', '--', 'bash']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('exec: "bash": executable file not found in $PATH');
  });

  it('cordon and drain: the node is unschedulable and its pods are evicted', async () => {
    await createPod(
      host,
      pod('drained', {
        nodeSelector: { 'kubernetes.io/hostname': 'node-2' },
        containers: [{ name: 'c', image: 'nginx' }],
      }),
    );
    await podWhen(host, 'drained', 'Running', isRunningReady);
    const cordon = await k(['cordon', 'node-2']);
    expect(cordon.stdout).toBe('node/node-2 cordoned\n');
    const nodes = await k(['get', 'node', 'node-2', '--no-headers']);
    expect(nodes.stdout).toMatch(/^node-2\s+Ready,SchedulingDisabled\s/);
    const draining = awaitedLater(k(['drain', 'node-2', '--force', '--ignore-daemonsets', '--timeout=120s']));
    // Pods whose process ignores SIGTERM take their grace period, on the server's clock.
    await until('the evictions', async () => {
      const r = await host.request(
        'GET',
        '/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName=node-2',
      );
      return r.body.items.every((p: Obj) => p.metadata.deletionTimestamp !== undefined) ? r : undefined;
    });
    await advance(host, '30s');
    const drain = await draining;
    expect(drain.code, drain.stderr).toBe(0);
    expect(drain.stdout).toContain('pod/drained evicted');
    expect(drain.stdout).toContain('node/node-2 drained');
    const uncordon = await k(['uncordon', 'node-2']);
    expect(uncordon.stdout).toBe('node/node-2 uncordoned\n');
  });
  // Three rollouts and a scale-down: longer than a single step's default timeout on a loaded machine.
  it('the tutorial: create deployment, get pods, rollout status, set image, history, undo, scale', async () => {
    const created = await k(['create', 'deployment', 'nginx', '--image=nginx', '--replicas=3']);
    expect(created.stdout).toBe('deployment.apps/nginx created\n');
    const rollout = await k(['rollout', 'status', 'deploy/nginx', '--timeout=60s']);
    expect(rollout.code, rollout.stderr).toBe(0);
    expect(rollout.stdout).toMatch(/deployment "nginx" successfully rolled out\n$/);
    const pods = await k(['get', 'pods', '-l', 'app=nginx', '--no-headers']);
    const rows = pods.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/));
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ['1/1', 'Running', '0'],
      ['1/1', 'Running', '0'],
      ['1/1', 'Running', '0'],
    ]);
    const wide = await k(['get', 'pods', '-l', 'app=nginx', '-o', 'jsonpath={.items[*].spec.nodeName}']);
    expect(new Set(wide.stdout.split(' '))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    const deploy = await k(['get', 'deploy', 'nginx', '--no-headers']);
    expect(deploy.stdout).toMatch(/^nginx\s+3\/3\s+3\s+3\s/);

    const set = await k(['set', 'image', 'deploy/nginx', 'nginx=nginx:1.25']);
    expect(set.stdout).toBe('deployment.apps/nginx image updated\n');
    // nginx stops at SIGTERM: the old pods go at once.
    const again = await k(['rollout', 'status', 'deploy/nginx', '--timeout=60s']);
    expect(again.code, again.stderr).toBe(0);
    const history = await k(['rollout', 'history', 'deploy/nginx']);
    expect(history.stdout).toMatch(
      /^deployment\.apps\/nginx \nREVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n\n$/,
    );
    const undo = await k(['rollout', 'undo', 'deploy/nginx']);
    expect(undo.stdout).toBe('deployment.apps/nginx rolled back\n');
    expect((await k(['rollout', 'status', 'deploy/nginx', '--timeout=60s'])).code).toBe(0);
    const image = await k([
      'get',
      'deploy',
      'nginx',
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    ]);
    expect(image.stdout).toBe('nginx');

    const scaled = await k(['scale', 'deploy/nginx', '--replicas=1']);
    expect(scaled.stdout).toBe('deployment.apps/nginx scaled\n');
    await until('one nginx pod left', async () => {
      const r = await k(['get', 'pods', '-l', 'app=nginx', '--no-headers']);
      const left = r.stdout
        .trim()
        .split('\n')
        .filter((l) => /\sRunning\s/.test(l));
      return left.length === 1 && !/Terminating/.test(r.stdout) ? left : undefined;
    });
  }, 120_000);
});
