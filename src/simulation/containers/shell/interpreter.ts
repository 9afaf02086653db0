/**
 * The tiny shell: runs a parsed script as `sh` would inside a container —
 * variables and exported environment, `$?`, functions, `if`/loops/`for`,
 * `&&`/`||`, pipelines (each stage's output buffered into the next),
 * background jobs with `wait`, redirections to the container's files,
 * `set -e`/`-x`, `trap` for SIGTERM, and the commands of `commands.ts`.
 * Every command costs a tick of the process's clock, so that a loop
 * without sleeps runs at a bounded pace instead of holding the event loop.
 */

import { ExpansionError, expandToString, expandWord, globToRegExp, type ExpansionScope } from './expand';
import { parseScript, ShellSyntaxError } from './parser';
import type { AndOr, Command, Pipeline, Redirect, Script, SimpleCommand } from './syntax';
import {
  Collector,
  discard,
  Killed,
  noInput,
  textInput,
  type Input,
  type Output,
  type ProcessHost,
} from './io';
import { FsError, resolvePath } from '../filesystem';

/** What a command is given when it runs. */
export interface CommandContext {
  /** The arguments after the command's name. */
  args: string[];
  /** The name as invoked (`echo`, `/bin/echo`). */
  name: string;
  /** The environment the command sees (exported variables and the command's own assignments). */
  env: Map<string, string>;
  stdin: Input;
  stdout: Output;
  stderr: Output;
  shell: Shell;
}

export type CommandFn = (ctx: CommandContext) => Promise<number>;

/** Thrown to end the shell (`exit`, `set -e`, a fatal error); carries the status. */
export class ExitShell extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
  }
}

class LoopControl extends Error {
  constructor(
    readonly kind: 'break' | 'continue',
    public levels: number,
  ) {
    super(kind);
  }
}

class ReturnFromFunction extends Error {
  constructor(readonly status: number) {
    super('return');
  }
}

export interface ShellOptions {
  host: ProcessHost;
  commands: ReadonlyMap<string, CommandFn>;
  /** The environment the shell starts with (all of it exported). */
  env: Map<string, string>;
  /** `$0`. */
  name?: string;
  args?: string[];
  cwd?: string;
  /** A container's main process: SIGTERM without a trap is ignored, as for any PID 1. */
  pid1?: boolean;
  /** An exec session's shell: errors are reported and the session goes on. */
  interactive?: boolean;
}

export class Shell implements ExpansionScope {
  readonly host: ProcessHost;
  readonly commands: ReadonlyMap<string, CommandFn>;
  private readonly vars = new Map<string, string>();
  private readonly exported = new Set<string>();
  private readonly functions = new Map<string, Command>();
  private readonly traps = new Map<string, string>();
  private readonly background: Promise<number>[] = [];
  private positionalArgs: string[];
  private readonly name: string;
  private lastStatus = 0;
  private lastBackgroundPid = 0;
  private errexit = false;
  private xtrace = false;
  /** Inside an `if`/`while` condition or before `&&`/`||`: `set -e` does not apply. */
  private conditional = 0;
  private pendingTerm = false;
  private readonly pid1: boolean;
  private readonly interactive: boolean;
  cwd: string;

  constructor(o: ShellOptions) {
    this.host = o.host;
    this.commands = o.commands;
    for (const [k, v] of o.env) {
      this.vars.set(k, v);
      this.exported.add(k);
    }
    this.name = o.name ?? 'sh';
    this.positionalArgs = o.args ?? [];
    this.cwd = o.cwd ?? '/';
    this.pid1 = o.pid1 ?? false;
    this.interactive = o.interactive ?? false;
    if (!this.vars.has('PWD')) this.vars.set('PWD', this.cwd);
  }

  /** A shell for `sh -c` or a subshell: the exported environment and the current directory carried over. */
  child(name: string, args: string[], env?: Map<string, string>): Shell {
    return new Shell({
      host: this.host,
      commands: this.commands,
      env: env ?? this.environment(),
      name,
      args,
      cwd: this.cwd,
    });
  }

  /** The exported variables, as a command's environment. */
  environment(): Map<string, string> {
    const env = new Map<string, string>();
    for (const k of this.exported) {
      const v = this.vars.get(k);
      if (v !== undefined) env.set(k, v);
    }
    return env;
  }

  get status(): number {
    return this.lastStatus;
  }

  /** A signal for this shell: SIGTERM runs its trap after the current command; untrapped, PID 1 ignores it. */
  signal(signal: 'TERM' | 'INT'): 'handled' | 'ignored' | 'fatal' {
    if (this.traps.has(signal)) {
      this.pendingTerm = true;
      return 'handled';
    }
    return this.pid1 ? 'ignored' : 'fatal';
  }

  /** Runs script text; the status is the last command's, or the `exit` status. Syntax errors are status 2. */
  async runText(text: string, streams: { stdin: Input; stdout: Output; stderr: Output }): Promise<number> {
    let script: Script;
    try {
      script = parseScript(text);
    } catch (e) {
      if (!(e instanceof ShellSyntaxError)) throw e;
      streams.stderr.write(`${this.name}: ${e.message}\n`);
      return 2;
    }
    return this.runScript(script, streams);
  }

  async runScript(
    script: Script,
    streams: { stdin: Input; stdout: Output; stderr: Output },
  ): Promise<number> {
    try {
      await this.list(script, streams);
      await this.runPendingTrap(streams);
      return this.lastStatus;
    } catch (e) {
      if (e instanceof ExitShell) return e.status;
      if (e instanceof ReturnFromFunction) return e.status;
      if (e instanceof LoopControl) return this.lastStatus;
      throw e;
    }
  }

  /** Runs text in this shell, as `eval` and trap handlers do: `exit` ends the shell; syntax errors are status 2. */
  async evaluate(text: string, streams: Streams): Promise<number> {
    let script: Script;
    try {
      script = parseScript(text);
    } catch (e) {
      if (!(e instanceof ShellSyntaxError)) throw e;
      streams.stderr.write(`${this.name}: ${e.message}\n`);
      return (this.lastStatus = 2);
    }
    await this.list(script, streams);
    return this.lastStatus;
  }

  /** An interactive session's one line (or lines): `exit` ends the session by throwing `ExitShell`. */
  async runInteractive(
    text: string,
    streams: { stdin: Input; stdout: Output; stderr: Output },
  ): Promise<void> {
    const script = parseScript(text);
    try {
      await this.list(script, streams);
    } catch (e) {
      if (e instanceof LoopControl || e instanceof ReturnFromFunction) return;
      throw e;
    }
  }

  // ExpansionScope

  param(name: string): string | undefined {
    switch (name) {
      case '?':
        return String(this.lastStatus);
      case '$':
        return String(this.host.pid);
      case '#':
        return String(this.positionalArgs.length);
      case '0':
        return this.name;
      case '!':
        return this.lastBackgroundPid === 0 ? '' : String(this.lastBackgroundPid);
      case '-':
        return `${this.errexit ? 'e' : ''}${this.xtrace ? 'x' : ''}`;
      case 'RANDOM':
        return this.vars.get('RANDOM') ?? String(Math.floor(this.host.random() * 32768));
      case 'SECONDS':
        return this.vars.get('SECONDS') ?? String(Math.floor(this.host.now() / 1000) % 100000);
    }
    if (/^[1-9]$/.test(name)) return this.positionalArgs[Number(name) - 1];
    return this.vars.get(name);
  }

  positional(): string[] {
    return this.positionalArgs;
  }

  setVar(name: string, value: string): void {
    this.vars.set(name, value);
  }

  unsetVar(name: string): void {
    this.vars.delete(name);
    this.exported.delete(name);
  }

  exportVar(name: string, value?: string): void {
    if (value !== undefined) this.vars.set(name, value);
    this.exported.add(name);
  }

  setPositional(args: string[]): void {
    this.positionalArgs = args;
  }

  setOption(flag: 'e' | 'x', on: boolean): void {
    if (flag === 'e') this.errexit = on;
    else this.xtrace = on;
  }

  setTrap(signal: string, action: string | undefined): void {
    if (action === undefined || action === '-') this.traps.delete(signal);
    else this.traps.set(signal, action);
  }

  /** Waits for the background jobs started so far; returns the last one's status. */
  async waitBackground(): Promise<number> {
    let status = 0;
    while (this.background.length > 0) status = await (this.background.shift() as Promise<number>);
    return status;
  }

  async substitute(part: { script: Script }): Promise<string> {
    const out = new Collector();
    const sub = this.child(this.name, this.positionalArgs);
    for (const [k, v] of this.vars) if (!sub.vars.has(k)) sub.vars.set(k, v);
    await sub.runScript(part.script, { stdin: noInput, stdout: out, stderr: this.currentStderr });
    this.lastStatus = sub.lastStatus;
    return out.text;
  }

  glob(pattern: string): string[] {
    const absolute = pattern.startsWith('/');
    const segments = pattern.split('/').filter((s) => s !== '');
    let paths = [absolute ? '/' : this.cwd];
    for (const seg of segments) {
      const next: string[] = [];
      for (const base of paths) {
        if (!/[*?[]/.test(seg)) {
          const p = resolvePath(base, seg.replace(/\\(.)/g, '$1'));
          if (this.host.fs.stat(p) !== undefined) next.push(p);
          continue;
        }
        if (this.host.fs.stat(base)?.kind !== 'dir') continue;
        const re = globToRegExp(seg);
        for (const name of this.host.fs.list(base))
          if (re.test(name) && (!name.startsWith('.') || seg.startsWith('.')))
            next.push(resolvePath(base, name));
      }
      paths = next;
    }
    if (absolute) return paths.sort();
    const prefix = this.cwd === '/' ? '/' : `${this.cwd}/`;
    return paths.map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p)).sort();
  }

  // Running

  private currentStderr: Output = discard;

  private async list(script: Script, streams: Streams): Promise<void> {
    for (const item of script.items) {
      if (item.background) {
        this.lastBackgroundPid = 100 + this.background.length + Math.floor(this.host.random() * 900);
        const job = this.andOr(item, { ...streams, stdin: noInput }).then(
          () => this.lastStatus,
          (e: unknown) => (e instanceof Killed ? e.exitCode : 1),
        );
        this.background.push(job);
        this.lastStatus = 0;
        continue;
      }
      await this.andOr(item, streams);
      await this.runPendingTrap(streams);
    }
  }

  private async runPendingTrap(streams: Streams): Promise<void> {
    if (!this.pendingTerm) return;
    this.pendingTerm = false;
    const action = this.traps.get('TERM') ?? this.traps.get('INT');
    // The handler runs in this shell: its `exit` ends the script.
    if (action !== undefined && action !== '') await this.evaluate(action, streams);
  }

  private async andOr(item: AndOr, streams: Streams): Promise<void> {
    const conditionalFirst = item.rest.length > 0;
    if (conditionalFirst) this.conditional++;
    try {
      await this.pipeline(item.first, streams);
    } finally {
      if (conditionalFirst) this.conditional--;
    }
    for (let i = 0; i < item.rest.length; i++) {
      const { op, pipeline } = item.rest[i] as AndOr['rest'][number];
      if ((op === '&&') !== (this.lastStatus === 0)) continue;
      const last = i === item.rest.length - 1;
      if (!last) this.conditional++;
      try {
        await this.pipeline(pipeline, streams);
      } finally {
        if (!last) this.conditional--;
      }
    }
  }

  private async pipeline(p: Pipeline, streams: Streams): Promise<void> {
    if (p.negated) this.conditional++;
    try {
      let stdin = streams.stdin;
      for (let i = 0; i < p.commands.length; i++) {
        const last = i === p.commands.length - 1;
        const out = last ? streams.stdout : new Collector();
        await this.command(p.commands[i] as Command, { ...streams, stdin, stdout: out });
        if (!last) stdin = textInput((out as Collector).text);
      }
    } finally {
      if (p.negated) this.conditional--;
    }
    if (p.negated) this.lastStatus = this.lastStatus === 0 ? 1 : 0;
    else if (this.errexit && this.conditional === 0 && this.lastStatus !== 0)
      throw new ExitShell(this.lastStatus);
  }

  private async command(cmd: Command, streams: Streams): Promise<void> {
    this.host.checkKilled();
    switch (cmd.t) {
      case 'simple':
        return this.simple(cmd, streams);
      case 'function':
        this.functions.set(cmd.name, cmd.body);
        this.lastStatus = 0;
        return;
      case 'group': {
        const io = await this.redirected(cmd.redirects, streams);
        if (io === undefined) return;
        if (!cmd.subshell) return this.list(cmd.body, io);
        const sub = this.child(this.name, this.positionalArgs);
        for (const [k, v] of this.vars) if (!sub.vars.has(k)) sub.vars.set(k, v);
        this.lastStatus = await sub.runScript(cmd.body, io);
        return;
      }
      case 'if': {
        const io = await this.redirected(cmd.redirects, streams);
        if (io === undefined) return;
        for (const clause of cmd.clauses) {
          this.conditional++;
          try {
            await this.list(clause.cond, io);
          } finally {
            this.conditional--;
          }
          if (this.lastStatus === 0) return this.list(clause.body, io);
        }
        if (cmd.otherwise !== undefined) return this.list(cmd.otherwise, io);
        this.lastStatus = 0;
        return;
      }
      case 'loop': {
        const io = await this.redirected(cmd.redirects, streams);
        if (io === undefined) return;
        let status = 0;
        for (;;) {
          await this.host.tick();
          this.conditional++;
          try {
            await this.list(cmd.cond, io);
          } finally {
            this.conditional--;
          }
          if ((this.lastStatus === 0) === cmd.until) break;
          const control = await this.loopBody(cmd.body, io);
          status = this.lastStatus;
          if (control === 'break') break;
        }
        this.lastStatus = status;
        return;
      }
      case 'for': {
        const io = await this.redirected(cmd.redirects, streams);
        if (io === undefined) return;
        const items: string[] = [];
        if (cmd.items === undefined) items.push(...this.positionalArgs);
        else for (const w of cmd.items) items.push(...(await this.expand(w, io)));
        let status = 0;
        for (const item of items) {
          await this.host.tick();
          this.vars.set(cmd.name, item);
          const control = await this.loopBody(cmd.body, io);
          status = this.lastStatus;
          if (control === 'break') break;
        }
        this.lastStatus = status;
        return;
      }
    }
  }

  private async loopBody(body: Script, io: Streams): Promise<'break' | 'continue' | undefined> {
    try {
      await this.list(body, io);
      return undefined;
    } catch (e) {
      if (!(e instanceof LoopControl)) throw e;
      if (e.levels > 1) {
        e.levels--;
        throw e;
      }
      return e.kind;
    }
  }

  private async expand(word: Parameters<typeof expandWord>[0], streams: Streams): Promise<string[]> {
    this.currentStderr = streams.stderr;
    return expandWord(word, this);
  }

  private async simple(cmd: SimpleCommand, streams: Streams): Promise<void> {
    await this.host.tick();
    this.currentStderr = streams.stderr;
    let argv: string[];
    const assigned = new Map<string, string>();
    try {
      argv = [];
      for (const w of cmd.words) argv.push(...(await expandWord(w, this)));
      for (const a of cmd.assignments) assigned.set(a.name, await expandToString(a.value, this));
    } catch (e) {
      if (!(e instanceof ExpansionError)) throw e;
      streams.stderr.write(`${this.name}: ${e.message}\n`);
      this.lastStatus = e.message.includes('not set') ? 2 : 1;
      // A bad substitution or an unset `${x?}` ends a non-interactive shell, as sh does.
      if (!this.interactive) throw new ExitShell(this.lastStatus);
      return;
    }
    if (argv.length === 0) {
      for (const [k, v] of assigned) this.vars.set(k, v);
      const io = await this.redirected(cmd.redirects, streams);
      if (io !== undefined) this.lastStatus = 0;
      return;
    }
    if (this.xtrace) streams.stderr.write(`+ ${argv.join(' ')}\n`);
    const io = await this.redirected(cmd.redirects, streams);
    if (io === undefined) return;
    const [name = '', ...args] = argv;
    const fn = this.functions.get(name);
    if (fn !== undefined) {
      const saved = this.positionalArgs;
      this.positionalArgs = args;
      try {
        await this.command(fn, io);
      } catch (e) {
        if (!(e instanceof ReturnFromFunction)) throw e;
        this.lastStatus = e.status;
      } finally {
        this.positionalArgs = saved;
      }
      return;
    }
    const env = this.environment();
    for (const [k, v] of assigned) env.set(k, v);
    this.lastStatus = await this.runCommand(name, args, env, io);
  }

  /** Runs a command by name (a builtin or a program of the image), as `exec` and `command` do too. */
  async runCommand(name: string, args: string[], env: Map<string, string>, io: Streams): Promise<number> {
    // A program the image ships at that path (`/docker-entrypoint.sh`), or a userland one by its usual path.
    const inBin = /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(name);
    const fn =
      this.commands.get(name) ??
      (inBin ? this.commands.get(name.slice(name.lastIndexOf('/') + 1)) : undefined);
    if (fn === undefined) {
      io.stderr.write(`${this.name}: ${name}: not found\n`);
      return 127;
    }
    return fn({ args, name, env, stdin: io.stdin, stdout: io.stdout, stderr: io.stderr, shell: this });
  }

  /** `break`/`continue`/`return`/`exit` from a builtin. */
  loopControl(kind: 'break' | 'continue', levels: number): never {
    throw new LoopControl(kind, levels);
  }

  returnFromFunction(status: number): never {
    throw new ReturnFromFunction(status);
  }

  /** The streams after the command's redirections, or undefined (status 1, message written) when one fails. */
  private async redirected(redirects: Redirect[], streams: Streams): Promise<Streams | undefined> {
    if (redirects.length === 0) return streams;
    const fds: [Input, Output, Output] = [streams.stdin, streams.stdout, streams.stderr];
    for (const r of redirects) {
      const target = await expandToString(r.target, this);
      if (r.op === '>&') {
        if (target === '-') continue;
        const from = Number(target);
        if (r.fd === 0 || !(from === 1 || from === 2)) {
          streams.stderr.write(`${this.name}: ${target}: bad file descriptor\n`);
          this.lastStatus = 1;
          return undefined;
        }
        fds[r.fd === -1 ? 1 : (r.fd as 1 | 2)] = fds[from as 1 | 2];
        continue;
      }
      const path = resolvePath(this.cwd, target);
      if (path === '/dev/stdout' || path === '/dev/stderr') {
        const to = path === '/dev/stdout' ? streams.stdout : streams.stderr;
        if (r.fd === -1) fds[1] = fds[2] = to;
        else if (r.fd === 1 || r.fd === 2) fds[r.fd] = to;
        continue;
      }
      if (r.op === '<') {
        try {
          fds[0] = textInput(this.host.fs.read(path));
        } catch (e) {
          if (!(e instanceof FsError)) throw e;
          streams.stderr.write(`${this.name}: can't open '${target}': ${FsError.text[e.why]}\n`);
          this.lastStatus = 1;
          return undefined;
        }
        continue;
      }
      const out = this.fileOutput(path, r.op === '>>');
      if (typeof out === 'string') {
        streams.stderr.write(`${this.name}: can't create ${target}: ${out}\n`);
        this.lastStatus = 1;
        return undefined;
      }
      if (r.fd === -1) {
        fds[1] = out;
        fds[2] = out;
      } else if (r.fd === 1 || r.fd === 2) fds[r.fd] = out;
    }
    return { stdin: fds[0], stdout: fds[1], stderr: fds[2] };
  }

  /** An output into a file (created or emptied now, as opening does), or the error text. */
  private fileOutput(path: string, append: boolean): Output | string {
    if (path === '/dev/null') return discard;
    const fs = this.host.fs;
    try {
      if (!append || fs.stat(path) === undefined) fs.write(path, '');
    } catch (e) {
      if (e instanceof FsError) return FsError.text[e.why];
      throw e;
    }
    return {
      write: (text) => {
        try {
          fs.write(path, text, true);
        } catch {
          // The file was removed while open: what is written is lost, as on a real system.
        }
      },
    };
  }
}

type Streams = { stdin: Input; stdout: Output; stderr: Output };
