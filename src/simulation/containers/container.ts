/**
 * One simulated container: its files (the image's, the mounted volumes'),
 * its main process running the image's program or the pod's command
 * through the tiny shell, its log, the processes `exec` starts in it, and
 * its probes. Stopping sends the image's stop signal: a server exits at
 * once, a shell without a trap ignores it as PID 1 does, and what is still
 * running when the grace period ends is killed (exit 137). A container
 * whose `startedAt` lies in the past (a node agent that started again)
 * replays its program from then (see `process-clock.ts`).
 */

import type { Clock } from '../../machinery/clock';
import { MemoryFs, resolvePath } from './filesystem';
import type { ImageRef, ImageSpec, WebPage } from './images';
import { LogBuffer } from './log-buffer';
import { ProcessClock } from './process-clock';
import { commandsFor } from './shell/commands';
import { ExitShell, Shell, type CommandFn } from './shell/interpreter';
import { Collector, Killed, noInput, type Input, type Output, type ProcessHost } from './shell/io';
import { parseScript, ShellSyntaxError } from './shell/parser';

export interface ContainerConfig {
  /** containerd's 64-hex container id. */
  id: string;
  name: string;
  image: ImageSpec;
  ref: ImageRef;
  /** The process to run: ENTRYPOINT and CMD, or the pod's command and args, variables already expanded. */
  argv: string[];
  /** The environment in the order the runtime sets it. */
  env: [string, string][];
  /** Files of mounted volumes (read-only ones for ConfigMaps, Secrets, downward API). */
  files: { path: string; content: string; readOnly: boolean }[];
  /** Mounted directories (emptyDir, and the mount points of the file volumes). */
  dirs: { path: string; readOnly: boolean }[];
  workingDir?: string;
  hostname: string;
  podIP: string;
  /** When the process started (ms on the server's clock); in the past when it is resumed. */
  startedAt: number;
  clock: Clock;
}

export interface ExitInfo {
  exitCode: number;
  /** `StartError` when the program could not be started at all (exit 128, with the runtime's message). */
  reason: 'Completed' | 'Error' | 'StartError';
  message?: string;
  finishedAt: number;
  signal?: number;
}

export interface ProbeOutcome {
  ok: boolean;
  /** What the kubelet puts after `Liveness probe failed: `. */
  message: string;
}

interface RunningProcess {
  pid: number;
  command: string;
  shell?: Shell;
  stop: () => void;
}

const shells = new Set(['sh', 'bash', 'ash', 'dash', '/bin/sh', '/bin/bash', '/bin/ash', '/usr/bin/bash']);

export class Container {
  readonly fs = new MemoryFs();
  readonly log = new LogBuffer();
  readonly commands: Map<string, CommandFn>;
  /** Settles when the main process exits (or is killed). */
  readonly exited: Promise<ExitInfo>;
  exit: ExitInfo | undefined;
  private readonly clocks = new Set<ProcessClock>();
  private endedCpuMs = 0;
  private listening = false;
  private killed = false;
  private readonly killListeners = new Set<(e: unknown) => void>();
  private readonly stopWaiters = new Set<() => void>();
  private readonly processes = new Map<number, RunningProcess>();
  private nextPid = 7;
  private seed: number;
  private mainShell: Shell | undefined;

  /** Set when the program does not exist in the image: the container exited at once, never started. */
  readonly startError: string | undefined;

  constructor(readonly config: ContainerConfig) {
    this.commands = commandsFor(config.image.shell, config.image.programs);
    this.seed = parseInt(config.id.slice(0, 8), 16) || 1;
    this.populate();
    const program = config.argv[0] ?? '';
    this.startError = this.findProgram(program) ? undefined : new StartError(program).message;
    this.exited = this.runMain();
  }

  private findProgram(name: string): boolean {
    return Container.hasProgram(this.config.image, name, this.commands);
  }

  /** Whether the image has the program `name` (by name, or a userland one by its usual path). */
  static hasProgram(
    image: ImageSpec,
    name: string,
    commands = commandsFor(image.shell, image.programs),
  ): boolean {
    if (commands.has(name)) return true;
    return (
      /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(name) && commands.has(name.slice(name.lastIndexOf('/') + 1))
    );
  }

  get id(): string {
    return this.config.id;
  }

  /** Simulated CPU time its processes have used (a loop without sleeps uses a whole core). */
  get cpuMs(): number {
    let ms = this.endedCpuMs;
    for (const c of this.clocks) ms += c.cpuMs;
    return ms;
  }

  private retire(clock: ProcessClock): void {
    if (!this.clocks.delete(clock)) return;
    clock.end();
    this.endedCpuMs += clock.cpuMs;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** The image's web server, while its program serves. */
  get web(): { port: number; page(path: string, hostname: string): WebPage } | undefined {
    return this.listening && this.running ? this.config.image.web : undefined;
  }

  /**
   * Stops the container as the runtime does: the stop signal now, SIGKILL once `graceMs` has passed on the
   * server's clock. Resolves with how it exited.
   */
  async stop(graceMs: number): Promise<ExitInfo> {
    if (this.exit !== undefined) return this.exit;
    this.signalMain();
    if (this.exit !== undefined) return this.exit;
    const cancel = this.config.clock.setTimer(Math.max(0, graceMs), () => this.kill());
    const info = await this.exited;
    cancel();
    return info;
  }

  /** SIGKILL: everything in the container ends now. */
  kill(): void {
    if (this.killed) return;
    this.killed = true;
    for (const l of [...this.killListeners]) l(new Killed('KILL'));
    this.killListeners.clear();
    for (const p of this.processes.values()) p.stop();
  }

  /** Runs a command in the container (exec, exec probes): its own process beside the main one. */
  async execute(
    argv: string[],
    io: { stdin: Input; stdout: Output; stderr: Output },
    options: { tty?: boolean; closed?: AbortSignal } = {},
  ): Promise<number> {
    if (!this.running) return 126;
    if (options.closed?.aborted === true) return 137;
    const pid = this.nextPid++;
    let stopped = false;
    const killers = new Set<(e: unknown) => void>();
    const host = this.host(
      pid,
      (reject) => {
        killers.add(reject);
        return () => killers.delete(reject);
      },
      () => stopped,
    );
    const shell = new Shell({
      host,
      commands: this.commands,
      env: new Map(this.config.env),
      name: argv[0] ?? 'sh',
      cwd: this.config.workingDir ?? '/',
      interactive: options.tty === true,
    });
    this.processes.set(pid, {
      pid,
      command: argv.join(' '),
      shell,
      stop: () => {
        stopped = true;
        for (const k of killers) k(new Killed('KILL'));
      },
    });
    // The client went away: the runtime kills what its exec session started (containerd sends SIGKILL when
    // the exec's context ends), so nothing a learner started by `kubectl exec` outlives the session.
    const hangup = () => this.processes.get(pid)?.stop();
    options.closed?.addEventListener('abort', hangup, { once: true });
    try {
      const [name = '', ...args] = argv;
      if (options.tty === true && shells.has(name) && args.length === 0)
        return await this.interactive(shell, io);
      return await shell.runCommand(name, args, shell.environment(), io);
    } catch (e) {
      if (e instanceof ExitShell) return e.status;
      if (e instanceof Killed) return e.exitCode;
      throw e;
    } finally {
      options.closed?.removeEventListener('abort', hangup);
      this.processes.delete(pid);
      this.retire(host.clock);
    }
  }

  /** An exec probe: the command's output is the failure message; a command running past the timeout fails. */
  async probeExec(command: string[], timeoutMs: number): Promise<ProbeOutcome> {
    const out = new Collector();
    let timedOut = false;
    const result = await Promise.race([
      this.execute(command, { stdin: noInput, stdout: out, stderr: out }),
      new Promise<number>((resolve) => {
        const cancel = this.config.clock.setTimer(timeoutMs, () => {
          timedOut = true;
          resolve(-1);
        });
        void this.exited.then(cancel);
      }),
    ]);
    if (timedOut) return { ok: false, message: `command "${command.join(' ')}" timed out` };
    return { ok: result === 0, message: out.text };
  }

  /** A connection to `port` from a probe or a client: whether something listens there. */
  accepts(port: number): boolean {
    return this.web?.port === port;
  }

  /** An HTTP GET served by the container's web server, with its access-log line. */
  serve(path: string, userAgent: string, from: string): WebPage | undefined {
    const web = this.web;
    if (web === undefined) return undefined;
    const page = web.page(path, this.config.hostname);
    this.accessLog(path, page, userAgent, from);
    return page;
  }

  private accessLog(path: string, page: WebPage, userAgent: string, from: string): void {
    const now = this.config.clock.now();
    const repo = this.config.image.repository;
    if (!repo.endsWith('/nginx') && !repo.endsWith('/httpd')) return;
    const d = now.toUTCString().split(' ');
    const stamp = `${d[1]}/${d[2]}/${d[3]}:${d[4]} +0000`;
    const size = new TextEncoder().encode(page.body).length;
    const line = repo.endsWith('/nginx')
      ? `${from} - - [${stamp}] "GET ${path} HTTP/1.1" ${page.status} ${size} "-" "${userAgent}" "-"\n`
      : `${from} - - [${stamp}] "GET ${path} HTTP/1.1" ${page.status} ${size}\n`;
    this.log.write('stdout', line, now.getTime());
  }

  private populate(): void {
    const fs = this.fs;
    for (const d of [
      '/bin',
      '/dev',
      '/etc',
      '/home',
      '/proc',
      '/root',
      '/sys',
      '/tmp',
      '/usr/bin',
      '/usr/local/bin',
      '/var/log',
      '/var/run',
    ])
      fs.mkdirs(d);
    const { hostname, podIP, image } = this.config;
    fs.provide('/etc/hostname', `${hostname}\n`);
    fs.provide(
      '/etc/hosts',
      `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${podIP}\t${hostname}\n`,
    );
    if (image.os !== '')
      fs.provide('/etc/os-release', `PRETTY_NAME="${image.os}"\nNAME="${image.os.split(' ')[0] ?? ''}"\n`);
    if (image.repository.endsWith('/nginx'))
      fs.provide('/usr/share/nginx/html/index.html', image.web?.page('/', hostname).body ?? '');
    for (const d of this.config.dirs) fs.mkdirs(d.path, d.readOnly);
    for (const f of this.config.files) fs.provide(f.path, f.content, f.readOnly);
    if (this.config.workingDir !== undefined) fs.mkdirs(this.config.workingDir);
  }

  private host(
    pid: number,
    onKill: (reject: (e: unknown) => void) => () => void,
    stopped: () => boolean,
  ): ProcessHost & { clock: ProcessClock } {
    const clock = new ProcessClock(
      this.config.clock,
      pid === 1 ? this.config.startedAt : this.config.clock.now().getTime(),
      onKill,
    );
    this.clocks.add(clock);
    return {
      fs: this.fs,
      hostname: this.config.hostname,
      image: {
        name: this.config.image.repository,
        prettyName: this.config.image.os,
        prompt: this.config.image.shell === 'busybox' ? '/ # ' : '# ',
      },
      pid,
      clock,
      now: () => clock.now(),
      sleep: (ms) => clock.sleep(ms),
      tick: () => clock.tick(),
      checkKilled: () => {
        if (this.killed || stopped()) throw new Killed('KILL');
      },
      random: () => {
        this.seed = (this.seed * 16807) % 2147483647;
        return this.seed / 2147483647;
      },
      stopRequested: () =>
        new Promise<void>((resolve, reject) => {
          if (this.killed) return reject(new Killed('KILL'));
          this.stopWaiters.add(resolve);
          onKill(reject);
        }),
      listen: () => {
        this.listening = true;
      },
      web:
        this.config.image.web === undefined
          ? undefined
          : {
              port: this.config.image.web.port,
              serve: (path, userAgent) => this.serve(path, userAgent, '127.0.0.1') ?? { status: 0, body: '' },
            },
      processes: () => [
        { pid: 1, command: this.config.argv.join(' ') },
        ...[...this.processes.values()].map((p) => ({ pid: p.pid, command: p.command })),
      ],
      kill: (target, signal) => {
        if (target === 1) {
          if (signal === 'KILL') this.kill();
          else this.signalMain();
          return true;
        }
        const p = this.processes.get(target);
        p?.stop();
        return p !== undefined;
      },
    };
  }

  /** The stop signal to the main process: a server waiting for it exits; a shell runs its trap or ignores it. */
  private signalMain(): void {
    if (this.stopWaiters.size > 0) {
      for (const w of [...this.stopWaiters]) w();
      this.stopWaiters.clear();
      return;
    }
    this.mainShell?.signal('TERM');
  }

  private async runMain(): Promise<ExitInfo> {
    const host = this.host(
      1,
      (reject) => {
        this.killListeners.add(reject);
        return () => this.killListeners.delete(reject);
      },
      () => false,
    );
    const out: Output = { write: (t) => this.log.write('stdout', t, host.now()) };
    const err: Output = { write: (t) => this.log.write('stderr', t, host.now()) };
    const io = { stdin: noInput, stdout: out, stderr: err };
    const [name = '', ...args] = this.config.argv;
    if (this.startError !== undefined) {
      const finishedAt = this.config.clock.now().getTime();
      this.exit = { exitCode: 128, reason: 'StartError', message: this.startError, finishedAt };
      this.log.close(finishedAt);
      return this.exit;
    }
    let exitCode: number;
    try {
      if (shells.has(name) && this.commands.has(name.slice(name.lastIndexOf('/') + 1))) {
        exitCode = await this.runMainShell(name, args, host, io);
      } else {
        const shell = new Shell({
          host,
          commands: this.commands,
          env: new Map(this.config.env),
          name,
          pid1: true,
          cwd: this.config.workingDir ?? '/',
        });
        this.mainShell = shell;
        exitCode = await shell.runCommand(name, args, shell.environment(), io);
      }
    } catch (e) {
      if (e instanceof Killed) exitCode = e.exitCode;
      else if (e instanceof ExitShell) exitCode = e.status;
      else {
        err.write(`${e instanceof Error ? e.message : String(e)}\n`);
        exitCode = 128;
      }
    }
    const finishedAt = Math.max(host.now(), this.killed ? this.config.clock.now().getTime() : 0);
    this.retire(host.clock);
    this.exit = {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      finishedAt,
      ...(this.killed ? { signal: 9 } : {}),
    };
    this.listening = false;
    this.killListeners.clear();
    this.stopWaiters.clear();
    this.log.close(finishedAt);
    for (const p of this.processes.values()) p.stop();
    return this.exit;
  }

  private async runMainShell(
    name: string,
    args: string[],
    host: ProcessHost,
    io: { stdin: Input; stdout: Output; stderr: Output },
  ): Promise<number> {
    const rest = [...args];
    const flags: string[] = [];
    while (rest.length > 0 && /^-[a-z]+$/.test(rest[0] ?? '')) flags.push(rest.shift() as string);
    const c = flags.some((f) => f.includes('c'));
    let text = '';
    let scriptName = name;
    if (c) {
      text = rest.shift() ?? '';
      scriptName = rest.shift() ?? name;
    } else if (rest.length > 0) {
      const file = rest.shift() as string;
      try {
        text = this.fs.read(resolvePath(this.config.workingDir ?? '/', file));
        scriptName = file;
      } catch {
        io.stderr.write(`${name}: can't open '${file}': No such file or directory\n`);
        return 127;
      }
    }
    const shell = new Shell({
      host,
      commands: this.commands,
      env: new Map(this.config.env),
      name: scriptName,
      args: rest,
      pid1: true,
      cwd: this.config.workingDir ?? '/',
    });
    for (const f of flags) for (const o of f.slice(1)) if (o === 'e' || o === 'x') shell.setOption(o, true);
    this.mainShell = shell;
    // A shell with nothing to read (no -c, no script, no terminal) ends at once, as `sh` does on empty stdin.
    return shell.runText(text, io);
  }

  /** An interactive shell on a terminal: the prompt, line editing echoed back, `exit` or Ctrl-D to leave. */
  private async interactive(
    shell: Shell,
    io: { stdin: Input; stdout: Output; stderr: Output },
  ): Promise<number> {
    const crlf = (o: Output): Output => ({ write: (t) => o.write(t.replace(/\r?\n/g, '\r\n')) });
    const out = crlf(io.stdout);
    const prompt = () => out.write(this.promptText(shell));
    let pending = '';
    prompt();
    for (;;) {
      const line = await io.stdin.readLine();
      if (line === undefined) {
        out.write('exit\n');
        return shell.status;
      }
      pending += `${line}\n`;
      try {
        parseScript(pending);
      } catch (e) {
        if (e instanceof ShellSyntaxError && /unterminated|end of file|missing/.test(e.message)) {
          out.write('> ');
          continue;
        }
      }
      const text = pending;
      pending = '';
      try {
        await shell.runInteractive(text, { stdin: io.stdin, stdout: out, stderr: crlf(io.stderr) });
      } catch (e) {
        if (e instanceof ExitShell) return e.status;
        if (e instanceof ShellSyntaxError) crlf(io.stderr).write(`sh: ${e.message}\n`);
        else throw e;
      }
      prompt();
    }
  }

  private promptText(shell: Shell): string {
    if (this.config.image.shell === 'busybox') return `${shell.cwd === '/root' ? '~' : shell.cwd} # `;
    return '# ';
  }
}

/** The program to run does not exist in the image: the container never starts. */
export class StartError extends Error {
  constructor(readonly program: string) {
    super(
      `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "${program}": executable file not found in $PATH: unknown`,
    );
  }
}
