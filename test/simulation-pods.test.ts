/**
 * The simulated cluster through the Node host's HTTP API, with bare pods:
 * nodes registering, the scheduler placing pods (and refusing them with
 * the real messages), node agents running them (logs, exec, crash loops,
 * image pulls that fail), graceful deletion on the server's clock, and the
 * clock API. One host for the file; simulated durations are instant, and
 * the server's clock is moved instead of waiting.
 */

import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Exec, KubeConfig, type V1Status } from '@kubernetes/client-node';
import { startTestHost, type TestHost } from './support/host';
import {
  advance,
  createPod,
  eventsOf,
  getPod,
  isRunningReady,
  nodesReady,
  pod,
  podWhen,
  until,
  waiting,
  type Obj,
} from './support/simulation';
import { awaitedLater } from './support/awaited-later';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ simulation: { settings: { speed: 'instant' } } });
  await nodesReady(host);
});
afterAll(async () => host?.close());

describe('nodes', () => {
  it('register Ready, with capacity, addresses, system info and a renewed Lease', async () => {
    const r = await host.request('GET', '/api/v1/nodes/node-1');
    const node = r.body;
    expect(node.metadata.labels).toMatchObject({ 'orch.io/hostname': 'node-1', 'orch.io/os': 'linux' });
    expect(node.status.capacity).toEqual({
      cpu: '4',
      memory: '8Gi',
      pods: '110',
      'ephemeral-storage': '100Gi',
    });
    expect(node.status.addresses).toEqual([
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: 'node-1' },
    ]);
    expect(node.status.nodeInfo).toMatchObject({
      kubeletVersion: 'v1.27.16',
      containerRuntimeVersion: 'containerd://1.7.1',
    });
    expect(node.status.conditions.find((c: Obj) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
    });
    const lease = await host.request(
      'GET',
      '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases/node-1',
    );
    expect(lease.body.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    // The heartbeat renews it on the server's clock.
    const before = lease.body.spec.renewTime;
    await advance(host, '11s');
    await until('a renewed lease', async () => {
      const l = await host.request(
        'GET',
        '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases/node-1',
      );
      return l.body.spec.renewTime !== before ? l : undefined;
    });
  });

  it('are written by the node identity and judged by the Node authorizer', async () => {
    const r = await host.request('GET', '/api/v1/nodes/node-2');
    const managers = r.body.metadata.managedFields.map((f: Obj) => f.manager);
    expect(managers).toContain('node-agent');
  });
});

describe('a pod', () => {
  it('is scheduled, pulled, created, started and reported Running and Ready', async () => {
    await createPod(host, pod('web', { containers: [{ name: 'web', image: 'nginx' }] }));
    const p = await podWhen(host, 'web', 'Running and Ready', isRunningReady);
    expect(p.spec.nodeName).toMatch(/^node-[123]$/);
    expect(p.status.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    expect(p.status.containerStatuses[0]).toMatchObject({
      name: 'web',
      ready: true,
      restartCount: 0,
      started: true,
      image: 'docker.io/library/nginx:latest',
      state: { running: {} },
    });
    expect(p.status.containerStatuses[0].imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(p.status.conditions.map((c: Obj) => `${c.type}=${c.status}`)).toEqual([
      'Initialized=True',
      'Ready=True',
      'ContainersReady=True',
      'PodScheduled=True',
    ]);
    const events = await until('the kubelet Events', async () => {
      const e = await eventsOf(host, 'web');
      return e.some((x) => x.startsWith('Normal Started')) ? e : undefined;
    });
    expect(events).toEqual(
      expect.arrayContaining([
        `Normal Scheduled: Successfully assigned default/web to ${p.spec.nodeName}`,
        'Normal Pulling: Pulling image "nginx"',
        expect.stringMatching(
          /^Normal Pulled: Successfully pulled image "nginx" in [\d.]+m?s \([\d.]+m?s including waiting\)$/,
        ),
        'Normal Created: Created container web',
        'Normal Started: Started container web',
      ]),
    );
    // A status someone else wrote (or a stale one the agent's watch delivers) does not move the kubelet's own
    // conditions: its status manager writes back what it knows, with the transition time it had.
    const readySince = p.status.conditions.find((c: Obj) => c.type === 'Ready').lastTransitionTime;
    await advance(host, '1m');
    const stale = await host.request('PATCH', '/api/v1/namespaces/default/pods/web/status', {
      body: {
        status: {
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2020-01-01T00:00:00Z' }],
        },
      },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(stale.status).toBe(200);
    const restored = await podWhen(host, 'web', 'Ready again', isRunningReady);
    expect(restored.status.conditions.find((c: Obj) => c.type === 'Ready').lastTransitionTime).toBe(
      readySince,
    );
  });

  it('prints what its command printed (logs, tail, timestamps)', async () => {
    await createPod(
      host,
      pod('counter', {
        restartPolicy: 'Never',
        containers: [
          {
            name: 'c',
            image: 'busybox',
            command: ['sh', '-c', 'for i in 1 2 3; do echo "line $i"; done; echo oops >&2'],
          },
        ],
      }),
    );
    await podWhen(host, 'counter', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    const logs = await host.request('GET', '/api/v1/namespaces/default/pods/counter/log');
    expect(logs.text).toBe('line 1\nline 2\nline 3\noops\n');
    const tail = await host.request('GET', '/api/v1/namespaces/default/pods/counter/log?tailLines=1');
    expect(tail.text).toBe('oops\n');
    const stamped = await host.request(
      'GET',
      '/api/v1/namespaces/default/pods/counter/log?timestamps=true&tailLines=2',
    );
    expect(stamped.text).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z line 3\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z oops\n$/,
    );
    const previous = await host.request('GET', '/api/v1/namespaces/default/pods/counter/log?previous=true');
    expect([previous.status, previous.body.message]).toEqual([
      400,
      'previous terminated container "c" in pod "counter" not found',
    ]);
  });

  it('follows its log until the container ends (on the server clock)', async () => {
    await createPod(
      host,
      pod('ticker', {
        restartPolicy: 'Never',
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo one; sleep 60; echo two'] }],
      }),
    );
    await podWhen(host, 'ticker', 'Running', (p) => p.status?.phase === 'Running');
    const followed = awaitedLater(
      host.request('GET', '/api/v1/namespaces/default/pods/ticker/log?follow=true'),
    );
    await until('the first line', async () => {
      const r = await host.request('GET', '/api/v1/namespaces/default/pods/ticker/log');
      return r.text === 'one\n' ? r : undefined;
    });
    await advance(host, '60s');
    expect((await followed).text).toBe('one\ntwo\n');
  });

  it('runs exec over WebSocket in the container (env, files, exit code)', async () => {
    await createPod(
      host,
      pod('shell', {
        containers: [
          {
            name: 'c',
            image: 'busybox',
            command: ['sleep', '3600'],
            env: [{ name: 'GREETING', value: 'hi' }],
          },
        ],
      }),
    );
    await podWhen(host, 'shell', 'Running', isRunningReady);
    const kc = new KubeConfig();
    kc.loadFromFile(host.kubeconfigPath);
    const run = (command: string[], stdin: Readable | null = null, tty = false) =>
      new Promise<{ out: string; err: string; status: V1Status }>((resolve, reject) => {
        let out = '';
        let err = '';
        const sink = (write: (s: string) => void) =>
          new Writable({
            write(chunk: Buffer, _e, done) {
              write(chunk.toString());
              done();
            },
          });
        new Exec(kc)
          .exec(
            'default',
            'shell',
            'c',
            command,
            sink((s) => (out += s)),
            sink((s) => (err += s)),
            stdin,
            tty,
            (status) => resolve({ out, err, status }),
          )
          .catch(reject);
      });
    const ok = await run(['sh', '-c', 'echo $GREETING from $(hostname); cat /etc/hostname']);
    expect(ok.out).toBe('hi from shell\nshell\n');
    expect(ok.status.status).toBe('Success');
    const failed = await run(['sh', '-c', 'echo bad >&2; exit 7']);
    expect(failed.err).toBe('bad\n');
    expect(failed.status).toMatchObject({
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '7' }] },
    });
    // On a terminal: the prompt, what is typed echoed back, output with CRLF.
    const interactive = await run(['sh'], Readable.from(['echo hi\r', 'exit 4\r']), true);
    expect(interactive.out).toBe('/ # echo hi\r\nhi\r\n/ # exit 4\r\n');
    expect(interactive.status).toMatchObject({
      reason: 'NonZeroExitCode',
      details: { causes: [{ message: '4' }] },
    });
    // The client goes away: the command it started ends with its session, as the runtime kills it.
    const socket = await new Exec(kc).exec(
      'default',
      'shell',
      'c',
      ['sleep', '7777'],
      new Writable({ write: (_c, _e, done) => done() }),
      null,
      null,
      false,
    );
    const listed = async () => (await run(['ps'])).out;
    await until('the exec running', async () => ((await listed()).includes('sleep 7777') ? true : undefined));
    socket.close();
    await until('the exec gone with its session', async () =>
      (await listed()).includes('sleep 7777') ? undefined : true,
    );
  });

  it('restarts a crashing container with the kubelet back-off (CrashLoopBackOff)', async () => {
    await createPod(
      host,
      pod('crash', {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo oops; exit 1'] }],
      }),
    );
    const looping = await podWhen(
      host,
      'crash',
      'in CrashLoopBackOff',
      (p) => waiting(p) === 'CrashLoopBackOff',
    );
    const status = looping.status.containerStatuses[0];
    expect(status.restartCount).toBe(1);
    expect(status.state.waiting.message).toBe(
      `back-off 10s restarting failed container=c pod=crash_default(${looping.metadata.uid})`,
    );
    expect(status.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    // The back-off waits on the server's clock: moving it restarts the container.
    await advance(host, '10s');
    const again = await podWhen(
      host,
      'crash',
      'restarted twice',
      (p) => p.status.containerStatuses[0].restartCount === 2,
    );
    expect(again.status.phase).toBe('Running');
    const logs = await host.request('GET', '/api/v1/namespaces/default/pods/crash/log?previous=true');
    expect(logs.text).toBe('oops\n');
  });

  it('cannot pull an unknown image (ErrImagePull, ImagePullBackOff)', async () => {
    await createPod(host, pod('typo', { containers: [{ name: 'c', image: 'nginx:1.161' }] }));
    const p = await podWhen(host, 'typo', 'in ImagePullBackOff', (x) => waiting(x) === 'ImagePullBackOff');
    expect(p.status.containerStatuses[0].state.waiting.message).toBe('Back-off pulling image "nginx:1.161"');
    const logs = await host.request('GET', '/api/v1/namespaces/default/pods/typo/log');
    expect([logs.status, logs.body.message]).toEqual([
      400,
      'container "c" in pod "typo" is waiting to start: trying and failing to pull image',
    ]);
    expect(await eventsOf(host, 'typo')).toEqual(
      expect.arrayContaining([
        'Warning Failed: Failed to pull image "nginx:1.161": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.161": failed to resolve reference "docker.io/library/nginx:1.161": docker.io/library/nginx:1.161: not found',
        'Warning Failed: Error: ErrImagePull',
        'Normal BackOff: Back-off pulling image "nginx:1.161"',
      ]),
    );
  });

  it('keeps a failing readiness probe unready, and a failing liveness probe restarts', async () => {
    await createPod(
      host,
      pod('probed', {
        containers: [
          {
            name: 'web',
            image: 'nginx:1.25',
            readinessProbe: { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5 },
          },
          {
            name: 'live',
            image: 'busybox',
            command: ['sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
            livenessProbe: {
              exec: { command: ['cat', '/tmp/healthy'] },
              periodSeconds: 5,
              failureThreshold: 2,
            },
          },
        ],
      }),
    );
    await podWhen(host, 'probed', 'Running', (p) => p.status?.phase === 'Running');
    await advance(host, '6s');
    const p = await podWhen(host, 'probed', 'probed', (x) =>
      (x.status?.containerStatuses ?? []).every((c: Obj) => c.state?.running !== undefined),
    );
    expect(p.status.conditions.find((c: Obj) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'ContainersNotReady',
    });
    expect(p.status.containerStatuses.find((c: Obj) => c.name === 'web').ready).toBe(false);
    // The Event is written beside the status, not before it: waited for, not read once.
    await until('the readiness probe failure Event', async () =>
      (await eventsOf(host, 'probed')).includes(
        'Warning Unhealthy: Readiness probe failed: HTTP probe failed with statuscode: 404',
      )
        ? true
        : undefined,
    );
    // /tmp/healthy goes after 30 s; two failed probes later the container is killed and restarted.
    for (let i = 0; i < 8; i++) await advance(host, '5s');
    await podWhen(host, 'probed', 'restarted by its liveness probe', (x) =>
      (x.status?.containerStatuses ?? []).some((c: Obj) => c.name === 'live' && c.restartCount >= 1),
    );
    expect(await eventsOf(host, 'probed')).toEqual(
      expect.arrayContaining([
        "Warning Unhealthy: Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory",
        'Normal Killing: Container live failed liveness probe, will be restarted',
      ]),
    );
  });

  it('mounts ConfigMaps and the downward API, and waits for a missing ConfigMap (CreateContainerConfigError)', async () => {
    await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'app' }, data: { color: 'blue', 'app.properties': 'mode=dev\n' } },
    });
    await createPod(
      host,
      pod(
        'mounted',
        {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'c',
              image: 'busybox',
              command: [
                'sh',
                '-c',
                'echo "$COLOR $POD_NAME"; cat /etc/app/app.properties /etc/info/labels; echo',
              ],
              env: [
                { name: 'COLOR', valueFrom: { configMapKeyRef: { name: 'app', key: 'color' } } },
                { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
              ],
              volumeMounts: [
                { name: 'config', mountPath: '/etc/app' },
                { name: 'info', mountPath: '/etc/info' },
              ],
            },
          ],
          volumes: [
            { name: 'config', configMap: { name: 'app' } },
            {
              name: 'info',
              downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] },
            },
          ],
        },
        { labels: { tier: 'web' } },
      ),
    );
    await podWhen(host, 'mounted', 'Succeeded', (p) => p.status?.phase === 'Succeeded');
    const logs = await host.request('GET', '/api/v1/namespaces/default/pods/mounted/log');
    expect(logs.text).toBe('blue mounted\nmode=dev\ntier="web"\n');

    await createPod(
      host,
      pod('unconfigured', {
        containers: [
          {
            name: 'c',
            image: 'busybox',
            command: ['sleep', '3600'],
            envFrom: [{ configMapRef: { name: 'missing' } }],
          },
        ],
      }),
    );
    const p = await podWhen(
      host,
      'unconfigured',
      'waiting for its ConfigMap',
      (x) => waiting(x) === 'CreateContainerConfigError',
    );
    expect(p.status.containerStatuses[0].state.waiting.message).toBe('configmap "missing" not found');
    // Created now, it is found on the next try.
    await host.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'missing' }, data: { A: '1' } },
    });
    await advance(host, '10s');
    await podWhen(host, 'unconfigured', 'Running', isRunningReady);
  });
});

describe('deletion', () => {
  it('takes the grace period for a container that ignores SIGTERM, then the node agent removes the pod', async () => {
    await createPod(
      host,
      pod('sleeper', { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] }),
    );
    await podWhen(host, 'sleeper', 'Running', isRunningReady);
    const deleted = await host.request('DELETE', '/api/v1/namespaces/default/pods/sleeper');
    expect(deleted.body.metadata.deletionGracePeriodSeconds).toBe(30);
    await until('the Killing Event', async () => {
      const e = await eventsOf(host, 'sleeper');
      return e.includes('Normal Killing: Stopping container c') ? e : undefined;
    });
    expect(await getPod(host, 'sleeper')).toBeDefined();
    await advance(host, '30s');
    await until('the pod gone', async () =>
      (await getPod(host, 'sleeper')) === undefined ? true : undefined,
    );
  });

  it('is quick for a web server, which exits on its stop signal', async () => {
    await createPod(host, pod('quick', { containers: [{ name: 'c', image: 'nginx' }] }));
    await podWhen(host, 'quick', 'Running', isRunningReady);
    await host.request('DELETE', '/api/v1/namespaces/default/pods/quick');
    await until('the pod gone', async () => ((await getPod(host, 'quick')) === undefined ? true : undefined));
  });
});

describe('the clock', () => {
  it('shows and moves the server time, forward only', async () => {
    const before = await host.request('GET', '/sandbox/v1/clock');
    expect(before.body).toMatchObject({ offsetMs: expect.any(Number), offset: expect.any(String) });
    const moved = await advance(host, '1h');
    expect(moved.body.offsetMs).toBe(before.body.offsetMs + 3_600_000);
    expect(Date.parse(moved.body.now)).toBeGreaterThan(Date.parse(before.body.now) + 3_599_000);
    const back = await host.request('POST', '/sandbox/v1/clock', { body: { advance: '-1m' } });
    expect([back.status, back.body.message]).toEqual([
      400,
      'the clock only moves forward: advance must not be negative',
    ]);
    const bad = await host.request('POST', '/sandbox/v1/clock', { body: { advance: 'soon' } });
    expect([bad.status, bad.body.message]).toEqual([400, 'advance: time: invalid duration "soon"']);
    const alice = await host.request('POST', '/sandbox/v1/clock', { body: { advance: '1s' }, as: 'alice' });
    expect(alice.status).toBe(403);
  });
});
