/**
 * The shell's own builtins — those that change the shell itself (`exit`,
 * `export`, `cd`, `set`, `trap`, `read`, `break`, …) and the everyday ones
 * every `sh` builds in (`echo`, `printf`, `test`/`[`, `true`, `false`,
 * `:`), with busybox's messages and exit statuses.
 */

import { ExitShell, type CommandContext, type CommandFn } from '../interpreter';
import { resolvePath } from '../../filesystem';
import { formatPrintf, interpretEscapes } from './format';

const ok = async () => 0;

function exit(ctx: CommandContext): Promise<number> {
  const arg = ctx.args[0];
  if (arg !== undefined && !/^-?\d+$/.test(arg)) {
    ctx.stderr.write(`${ctx.name}: Illegal number: ${arg}\n`);
    throw new ExitShell(2);
  }
  throw new ExitShell(arg === undefined ? ctx.shell.status : ((Number(arg) % 256) + 256) % 256);
}

async function exportCmd(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0 || ctx.args[0] === '-p') {
    for (const [k, v] of ctx.shell.environment())
      ctx.stdout.write(`export ${k}='${v.replace(/'/g, `'"'"'`)}'\n`);
    return 0;
  }
  for (const a of ctx.args) {
    const eq = a.indexOf('=');
    if (eq < 0) ctx.shell.exportVar(a);
    else ctx.shell.exportVar(a.slice(0, eq), a.slice(eq + 1));
  }
  return 0;
}

async function local(ctx: CommandContext): Promise<number> {
  for (const a of ctx.args) {
    const eq = a.indexOf('=');
    if (eq >= 0) ctx.shell.setVar(a.slice(0, eq), a.slice(eq + 1));
  }
  return 0;
}

async function unset(ctx: CommandContext): Promise<number> {
  for (const a of ctx.args) if (!a.startsWith('-')) ctx.shell.unsetVar(a);
  return 0;
}

async function set(ctx: CommandContext): Promise<number> {
  const args = [...ctx.args];
  while (args.length > 0 && /^[-+][a-z]+$/.test(args[0] ?? '')) {
    const flag = args.shift() as string;
    for (const f of flag.slice(1)) if (f === 'e' || f === 'x') ctx.shell.setOption(f, flag[0] === '-');
  }
  if (args[0] === '--') args.shift();
  if (ctx.args.length === 0) {
    for (const [k, v] of ctx.shell.environment()) ctx.stdout.write(`${k}='${v}'\n`);
    return 0;
  }
  if (args.length > 0 || ctx.args.includes('--')) ctx.shell.setPositional(args);
  return 0;
}

async function shift(ctx: CommandContext): Promise<number> {
  const n = Number(ctx.args[0] ?? '1');
  const args = ctx.shell.positional();
  if (n > args.length) return 1;
  ctx.shell.setPositional(args.slice(n));
  return 0;
}

async function trap(ctx: CommandContext): Promise<number> {
  const [action, ...signals] = ctx.args;
  if (action === undefined) return 0;
  for (const s of signals) {
    const name = s.toUpperCase().replace(/^SIG/, '');
    const signal = name === '15' ? 'TERM' : name === '2' ? 'INT' : name;
    ctx.shell.setTrap(signal, action);
  }
  return 0;
}

async function execCmd(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0) return 0;
  const [name = '', ...args] = ctx.args;
  const status = await ctx.shell.runCommand(name, args, ctx.env, ctx);
  throw new ExitShell(status);
}

async function evalCmd(ctx: CommandContext): Promise<number> {
  return ctx.shell.evaluate(ctx.args.join(' '), ctx);
}

async function source(ctx: CommandContext): Promise<number> {
  const file = ctx.args[0];
  if (file === undefined) {
    ctx.stderr.write(`${ctx.name}: .: filename argument required\n`);
    return 2;
  }
  let text: string;
  try {
    text = ctx.shell.host.fs.read(resolvePath(ctx.shell.cwd, file));
  } catch {
    ctx.stderr.write(`sh: .: can't open '${file}'\n`);
    throw new ExitShell(2);
  }
  return ctx.shell.evaluate(text, ctx);
}

async function read(ctx: CommandContext): Promise<number> {
  const names = ctx.args.filter((a) => !a.startsWith('-'));
  const line = await ctx.stdin.readLine();
  if (line === undefined) return 1;
  const fields = line.trim().split(/[ \t]+/);
  if (names.length === 0) ctx.shell.setVar('REPLY', line);
  names.forEach((n, i) => {
    const last = i === names.length - 1;
    ctx.shell.setVar(n, last ? fields.slice(i).join(' ') : (fields[i] ?? ''));
  });
  return 0;
}

function levels(ctx: CommandContext): number {
  const n = Number(ctx.args[0] ?? '1');
  return Number.isInteger(n) && n > 0 ? n : 1;
}

async function cd(ctx: CommandContext): Promise<number> {
  const target = ctx.args[0] ?? ctx.env.get('HOME') ?? '/';
  const path = resolvePath(ctx.shell.cwd, target);
  const entry = ctx.shell.host.fs.stat(path);
  if (entry === undefined || entry.kind !== 'dir') {
    ctx.stderr.write(
      `${ctx.name}: can't cd to ${target}: ${entry === undefined ? 'No such file or directory' : 'Not a directory'}\n`,
    );
    return 2;
  }
  ctx.shell.cwd = path;
  ctx.shell.setVar('PWD', path);
  return 0;
}

async function pwd(ctx: CommandContext): Promise<number> {
  ctx.stdout.write(`${ctx.shell.cwd}\n`);
  return 0;
}

async function echo(ctx: CommandContext): Promise<number> {
  let args = ctx.args;
  let newline = true;
  let escapes = false;
  while (args.length > 0 && /^-[neE]+$/.test(args[0] ?? '')) {
    for (const f of (args[0] ?? '').slice(1)) {
      if (f === 'n') newline = false;
      else escapes = f === 'e';
    }
    args = args.slice(1);
  }
  let text = args.join(' ');
  if (escapes) {
    const { text: t, stop } = interpretEscapes(text);
    text = t;
    if (stop) newline = false;
  }
  ctx.stdout.write(newline ? `${text}\n` : text);
  return 0;
}

async function printf(ctx: CommandContext): Promise<number> {
  const [format, ...args] = ctx.args;
  if (format === undefined) {
    ctx.stderr.write('printf: usage: printf FORMAT [ARGUMENT...]\n');
    return 1;
  }
  const { text, errors } = formatPrintf(format, args);
  ctx.stdout.write(text);
  for (const e of errors) ctx.stderr.write(`printf: ${e}\n`);
  return errors.length > 0 ? 1 : 0;
}

/** `test` and `[`: file, string and integer tests, `!`, `-a` and `-o`. */
async function test(ctx: CommandContext): Promise<number> {
  let args = ctx.args;
  if (ctx.name === '[' || ctx.name.endsWith('/[')) {
    if (args[args.length - 1] !== ']') {
      ctx.stderr.write(`[: missing ]\n`);
      return 2;
    }
    args = args.slice(0, -1);
  }
  const fs = ctx.shell.host.fs;
  const file = (p: string) => fs.stat(resolvePath(ctx.shell.cwd, p));
  const integer = (s: string): number => {
    if (!/^\s*-?\d+\s*$/.test(s)) throw new Error(`${ctx.name}: ${s}: bad number`);
    return Number(s);
  };
  const unary = (op: string, a: string): boolean => {
    switch (op) {
      case '-z':
        return a === '';
      case '-n':
        return a !== '';
      case '-e':
        return file(a) !== undefined;
      case '-f':
        return file(a)?.kind === 'file';
      case '-d':
        return file(a)?.kind === 'dir';
      case '-s': {
        const e = file(a);
        return e?.kind === 'file' && e.content !== '';
      }
      case '-r':
      case '-x':
        return file(a) !== undefined;
      case '-w': {
        const e = file(a);
        return e !== undefined && !e.readOnly;
      }
      default:
        throw new Error(`${ctx.name}: ${op}: unknown operand`);
    }
  };
  const binary = (a: string, op: string, b: string): boolean | undefined => {
    switch (op) {
      case '=':
      case '==':
        return a === b;
      case '!=':
        return a !== b;
      case '-eq':
        return integer(a) === integer(b);
      case '-ne':
        return integer(a) !== integer(b);
      case '-lt':
        return integer(a) < integer(b);
      case '-le':
        return integer(a) <= integer(b);
      case '-gt':
        return integer(a) > integer(b);
      case '-ge':
        return integer(a) >= integer(b);
      default:
        return undefined;
    }
  };
  const evaluate = (list: string[]): boolean => {
    const or = list.indexOf('-o');
    if (or > 0) return evaluate(list.slice(0, or)) || evaluate(list.slice(or + 1));
    const and = list.indexOf('-a');
    if (and > 0 && list.length !== 3) return evaluate(list.slice(0, and)) && evaluate(list.slice(and + 1));
    if (list[0] === '!' && list.length > 1) return !evaluate(list.slice(1));
    const [a = '', b = '', c = ''] = list;
    switch (list.length) {
      case 0:
        return false;
      case 1:
        return a !== '';
      case 2:
        return unary(a, b);
      case 3: {
        const r = binary(a, b, c);
        if (r !== undefined) return r;
        throw new Error(`${ctx.name}: ${b}: unknown operand`);
      }
      default:
        throw new Error(`${ctx.name}: syntax error`);
    }
  };
  try {
    return evaluate(args) ? 0 : 1;
  } catch (e) {
    ctx.stderr.write(`sh: ${(e as Error).message}\n`);
    return 2;
  }
}

async function typeCmd(ctx: CommandContext): Promise<number> {
  let status = 0;
  for (const a of ctx.args) {
    if (builtinNames.has(a)) ctx.stdout.write(`${a} is a shell builtin\n`);
    else if (ctx.shell.commands.has(a)) ctx.stdout.write(`${a} is /bin/${a}\n`);
    else {
      ctx.stdout.write(`${a}: not found\n`);
      status = 127;
    }
  }
  return status;
}

async function which(ctx: CommandContext): Promise<number> {
  let status = 0;
  for (const a of ctx.args) {
    if (ctx.shell.commands.has(a) && !builtinNames.has(a)) ctx.stdout.write(`/bin/${a}\n`);
    else status = 1;
  }
  return status;
}

async function command(ctx: CommandContext): Promise<number> {
  const args = ctx.args.filter((a, i) => !(i === 0 && a === '-v'));
  if (ctx.args[0] === '-v') return which({ ...ctx, args });
  const [name = '', ...rest] = args;
  return ctx.shell.runCommand(name, rest, ctx.env, ctx);
}

export const builtins: Record<string, CommandFn> = {
  exit,
  export: exportCmd,
  local,
  unset,
  set,
  shift,
  trap,
  exec: execCmd,
  eval: evalCmd,
  '.': source,
  source,
  read,
  break: async (ctx) => ctx.shell.loopControl('break', levels(ctx)),
  continue: async (ctx) => ctx.shell.loopControl('continue', levels(ctx)),
  return: async (ctx) => ctx.shell.returnFromFunction(Number(ctx.args[0] ?? ctx.shell.status)),
  wait: async (ctx) => ctx.shell.waitBackground(),
  cd,
  pwd,
  echo,
  printf,
  test,
  '[': test,
  true: ok,
  ':': ok,
  false: async () => 1,
  type: typeCmd,
  which,
  command,
};

const builtinNames = new Set(Object.keys(builtins).filter((n) => n !== 'which'));
