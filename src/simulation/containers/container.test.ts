import { describe, expect, it } from 'vitest';
import { SandboxClock } from '../../machinery/clock';
import { Container, type ContainerConfig } from './container';
import { pullImage } from './images';
import { Collector, textInput } from './shell/io';
import { awaitedLater } from '../../../test/support/awaited-later';

const t0 = Date.UTC(2024, 4, 1, 12, 0, 0);

function container(image: string, argv: string[] | undefined, extra: Partial<ContainerConfig> = {}) {
  const clock = extra.clock instanceof SandboxClock ? extra.clock : new SandboxClock(() => new Date(t0));
  const pulled = pullImage(image);
  if (!pulled.ok) throw new Error(pulled.message);
  const c = new Container({
    id: 'abcdef0123456789'.repeat(4),
    name: 'c',
    image: pulled.image,
    ref: pulled.ref,
    argv: argv ?? [...pulled.image.entrypoint, ...pulled.image.cmd],
    env: [
      ['PATH', '/bin'],
      ['HOSTNAME', 'pod-1'],
    ],
    files: [{ path: '/etc/config/color', content: 'blue', readOnly: true }],
    dirs: [{ path: '/etc/config', readOnly: true }],
    hostname: 'pod-1',
    podIP: '10.244.1.5',
    startedAt: clock.now().getTime(),
    clock,
    ...extra,
  });
  return { c, clock };
}

/** Lets the processes run what they can before the next timer. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a simulated container', () => {
  it('runs its command on the server clock and exits with its status', async () => {
    const { c, clock } = container('busybox', ['sh', '-c', 'echo hello; sleep 5; echo bye; exit 3']);
    await settle();
    expect(c.log.read()).toBe('hello\n');
    expect(c.running).toBe(true);
    clock.advance(5_000);
    const exit = await c.exited;
    expect(exit).toMatchObject({ exitCode: 3, reason: 'Error', finishedAt: t0 + 5_000 });
    expect(c.log.read({ timestamps: true })).toBe(
      '2024-05-01T12:00:00.000000000Z hello\n2024-05-01T12:00:05.000000001Z bye\n',
    );
  });

  it('replays a program that has run since before the node agent started', async () => {
    const clock = new SandboxClock(() => new Date(t0));
    const { c } = container(
      'busybox',
      ['sh', '-c', 'i=0; while true; do echo "tick $i"; i=$((i+1)); sleep 10; done'],
      {
        clock,
        startedAt: t0 - 60_000,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(c.log.read()).toBe('tick 0\ntick 1\ntick 2\ntick 3\ntick 4\ntick 5\ntick 6\n');
    clock.advance(10_000);
    await settle();
    expect(c.log.read({ tailLines: 1 })).toBe('tick 7\n');
  });

  it('stops a web server at once with its own shutdown', async () => {
    const { c } = container('nginx', undefined);
    await settle();
    expect(c.log.read()).toContain('/docker-entrypoint.sh: Configuration complete; ready for start up\n');
    expect(c.accepts(80)).toBe(true);
    expect(c.serve('/', 'kube-probe/1.27', '10.244.1.1')?.status).toBe(200);
    expect(c.log.read({ tailLines: 1 })).toContain('"GET / HTTP/1.1" 200 615 "-" "kube-probe/1.27" "-"');
    const exit = await c.stop(30_000);
    expect(exit).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(c.log.read({ tailLines: 1 })).toContain('[notice] 1#1: exit');
  });

  it('kills a shell that ignores SIGTERM once the grace period is over', async () => {
    const { c, clock } = container('busybox', ['sleep', '3600']);
    const stopping = awaitedLater(c.stop(30_000));
    await settle();
    expect(c.running).toBe(true);
    clock.advance(30_000);
    expect(await stopping).toMatchObject({ exitCode: 137, reason: 'Error', signal: 9 });
  });

  it('lets a trap end the container on SIGTERM', async () => {
    const { c, clock } = container('busybox', [
      'sh',
      '-c',
      "trap 'echo stopping; exit 0' TERM; while true; do sleep 1; done",
    ]);
    await settle();
    const stopping = c.stop(30_000);
    // The trap runs once the running `sleep 1` is over.
    clock.advance(1_000);
    expect(await stopping).toMatchObject({ exitCode: 0 });
    expect(c.log.read()).toBe('stopping\n');
  });

  it('runs exec probes against the files the program changes', async () => {
    const { c, clock } = container('busybox', [
      'sh',
      '-c',
      'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600',
    ]);
    await settle();
    expect(await c.probeExec(['cat', '/tmp/healthy'], 1000)).toEqual({ ok: true, message: '' });
    clock.advance(30_000);
    await settle();
    expect(await c.probeExec(['cat', '/tmp/healthy'], 1000)).toEqual({
      ok: false,
      message: "cat: can't open '/tmp/healthy': No such file or directory\n",
    });
  });

  it('reads mounted files and refuses to write them', async () => {
    const { c } = container('busybox', ['sleep', 'infinity']);
    const out = new Collector();
    const status = await c.execute(['sh', '-c', 'cat /etc/config/color; echo x > /etc/config/color'], {
      stdin: textInput(''),
      stdout: out,
      stderr: out,
    });
    expect([status, out.text]).toEqual([
      1,
      "bluesh: can't create /etc/config/color: Read-only file system\n",
    ]);
  });

  it('runs an interactive shell on a terminal', async () => {
    const { c } = container('busybox', ['sleep', 'infinity']);
    const out = new Collector();
    const status = await c.execute(
      ['sh'],
      { stdin: textInput('echo hi\nexit 2\n'), stdout: out, stderr: out },
      { tty: true },
    );
    expect([status, out.text]).toEqual([2, '/ # hi\r\n/ # ']);
  });

  it('fails to start a program the image does not have', () => {
    const { c } = container('nginx', ['nosuch']);
    expect(c.running).toBe(false);
    expect(c.exit).toMatchObject({ exitCode: 128, reason: 'StartError' });
    expect(c.startError).toContain('exec: "nosuch": executable file not found in $PATH');
  });
});
