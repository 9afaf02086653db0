/**
 * Programs about the process and its container: `sleep` (on the process's
 * clock, so the server's clock moving forward wakes it), `date` (the
 * server's time, in UTC, with `+FORMAT`), `hostname`, `env`/`printenv`,
 * `id`, `whoami`, `uname`, `ps`, `kill`, and `sh` itself (`sh -c '…'`, a
 * script file, or commands read from standard input).
 */

import { type Shell, type CommandContext, type CommandFn } from '../interpreter';
import { resolvePath } from '../../filesystem';

const units: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `sleep`'s operand in milliseconds (`1`, `0.5`, `2m`, `infinity`), or undefined when it is not one. */
export function sleepMs(arg: string): number | undefined {
  if (arg === 'inf' || arg === 'infinity') return Infinity;
  const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(arg);
  if (m === null) return undefined;
  return Number(m[1]) * (units[m[2] ?? ''] ?? 1000);
}

async function sleep(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0) {
    ctx.stderr.write('sleep: missing operand\n');
    return 1;
  }
  let total = 0;
  for (const a of ctx.args) {
    const ms = sleepMs(a);
    if (ms === undefined) {
      ctx.stderr.write(`sleep: invalid number '${a}'\n`);
      return 1;
    }
    total += ms;
  }
  await ctx.shell.host.sleep(total);
  return 0;
}

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** strftime in UTC, for `date +FORMAT`. */
export function strftime(format: string, ms: number): string {
  const d = new Date(ms);
  const p2 = (n: number) => String(n).padStart(2, '0');
  const startOfYear = Date.UTC(d.getUTCFullYear(), 0, 1);
  const hour12 = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12;
  const fields: Record<string, () => string> = {
    Y: () => String(d.getUTCFullYear()),
    y: () => p2(d.getUTCFullYear() % 100),
    m: () => p2(d.getUTCMonth() + 1),
    d: () => p2(d.getUTCDate()),
    e: () => String(d.getUTCDate()).padStart(2),
    H: () => p2(d.getUTCHours()),
    I: () => p2(hour12),
    M: () => p2(d.getUTCMinutes()),
    S: () => p2(d.getUTCSeconds()),
    N: () => String(d.getUTCMilliseconds() * 1_000_000).padStart(9, '0'),
    s: () => String(Math.floor(ms / 1000)),
    a: () => days[d.getUTCDay()] ?? '',
    A: () => dayNames[d.getUTCDay()] ?? '',
    b: () => months[d.getUTCMonth()] ?? '',
    h: () => months[d.getUTCMonth()] ?? '',
    B: () => monthNames[d.getUTCMonth()] ?? '',
    j: () => String(Math.floor((ms - startOfYear) / 86_400_000) + 1).padStart(3, '0'),
    p: () => (d.getUTCHours() < 12 ? 'AM' : 'PM'),
    u: () => String(d.getUTCDay() === 0 ? 7 : d.getUTCDay()),
    w: () => String(d.getUTCDay()),
    Z: () => 'UTC',
    z: () => '+0000',
    F: () => `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`,
    T: () => `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`,
    R: () => `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}`,
    D: () => `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${p2(d.getUTCFullYear() % 100)}`,
    c: () => strftime('%a %b %e %H:%M:%S %Y', ms),
    n: () => '\n',
    t: () => '\t',
    '%': () => '%',
  };
  return format.replace(/%([A-Za-z%])/g, (m, f: string) => fields[f]?.() ?? m);
}

async function date(ctx: CommandContext): Promise<number> {
  const now = ctx.shell.host.now();
  const format = ctx.args.find((a) => a.startsWith('+'));
  if (ctx.args.some((a) => a === '-I' || a === '--iso-8601')) {
    ctx.stdout.write(`${strftime('%F', now)}\n`);
    return 0;
  }
  if (ctx.args.some((a) => a === '-R')) {
    ctx.stdout.write(`${strftime('%a, %d %b %Y %H:%M:%S +0000', now)}\n`);
    return 0;
  }
  const bad = ctx.args.find((a) => !a.startsWith('+') && a !== '-u' && a !== '--utc');
  if (bad !== undefined) {
    ctx.stderr.write(`date: invalid date '${bad}'\n`);
    return 1;
  }
  ctx.stdout.write(`${strftime(format?.slice(1) ?? '%a %b %e %H:%M:%S %Z %Y', now)}\n`);
  return 0;
}

async function hostname(ctx: CommandContext): Promise<number> {
  ctx.stdout.write(`${ctx.shell.host.hostname}\n`);
  return 0;
}

async function env(ctx: CommandContext): Promise<number> {
  const vars = new Map(ctx.env);
  let i = 0;
  for (; i < ctx.args.length; i++) {
    const a = ctx.args[i] ?? '';
    if (a === '-i') vars.clear();
    else if (a.includes('=') && !a.startsWith('='))
      vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    else break;
  }
  const rest = ctx.args.slice(i);
  if (rest.length > 0) {
    const [name = '', ...args] = rest;
    return ctx.shell.runCommand(name, args, vars, ctx);
  }
  for (const [k, v] of vars) ctx.stdout.write(`${k}=${v}\n`);
  return 0;
}

async function printenv(ctx: CommandContext): Promise<number> {
  if (ctx.args.length === 0) return env({ ...ctx, args: [] });
  let status = 0;
  for (const name of ctx.args) {
    const v = ctx.env.get(name);
    if (v === undefined) status = 1;
    else ctx.stdout.write(`${v}\n`);
  }
  return status;
}

async function id(ctx: CommandContext): Promise<number> {
  const flag = ctx.args[0];
  if (flag === '-u' || flag === '-g') ctx.stdout.write('0\n');
  else if (flag === '-un' || flag === '-gn') ctx.stdout.write('root\n');
  else ctx.stdout.write('uid=0(root) gid=0(root) groups=0(root)\n');
  return 0;
}

async function whoami(ctx: CommandContext): Promise<number> {
  ctx.stdout.write('root\n');
  return 0;
}

const kernel = '5.15.0-sandbox';

async function uname(ctx: CommandContext): Promise<number> {
  const flags = new Set(ctx.args.flatMap((a) => [...a.replace(/^-/, '')]));
  const fields: [string, string][] = [
    ['s', 'Linux'],
    ['n', ctx.shell.host.hostname],
    ['r', kernel],
    ['v', '#1 SMP'],
    ['m', 'x86_64'],
    ['o', 'GNU/Linux'],
  ];
  const shown = flags.has('a') ? fields : fields.filter(([f]) => flags.has(f));
  ctx.stdout.write(`${(shown.length > 0 ? shown : fields.slice(0, 1)).map(([, v]) => v).join(' ')}\n`);
  return 0;
}

async function ps(ctx: CommandContext): Promise<number> {
  const processes = ctx.shell.host.processes?.() ?? [{ pid: ctx.shell.host.pid, command: 'sh' }];
  ctx.stdout.write('PID   USER     TIME  COMMAND\n');
  for (const p of processes) ctx.stdout.write(`${String(p.pid).padStart(5)} root      0:00 ${p.command}\n`);
  return 0;
}

async function kill(ctx: CommandContext): Promise<number> {
  let signal: 'TERM' | 'KILL' | 'INT' = 'TERM';
  let status = 0;
  for (const a of ctx.args) {
    if (/^-(9|KILL|SIGKILL|s ?KILL)$/.test(a)) signal = 'KILL';
    else if (/^-(2|INT|SIGINT)$/.test(a)) signal = 'INT';
    else if (/^-(15|TERM|SIGTERM)$/.test(a)) signal = 'TERM';
    else if (/^\d+$/.test(a)) {
      if (ctx.shell.host.kill?.(Number(a), signal) !== true) {
        ctx.stderr.write(`sh: can't kill pid ${a}: No such process\n`);
        status = 1;
      }
    } else {
      ctx.stderr.write(`kill: bad signal name '${a}'\n`);
      return 1;
    }
  }
  return status;
}

/** `sh`, `bash`, `ash`: `-c SCRIPT [NAME ARGS…]`, a script file, or commands from standard input. */
async function sh(ctx: CommandContext): Promise<number> {
  const args = [...ctx.args];
  const options: string[] = [];
  while (args.length > 0 && /^-[a-z]+$/.test(args[0] ?? '') && !(args[0] ?? '').includes('c'))
    options.push(args.shift() as string);
  let text: string;
  let name = ctx.name;
  let positional: string[];
  if (/^-[a-z]*c[a-z]*$/.test(args[0] ?? '')) {
    options.push(args.shift() as string);
    if (args.length === 0) {
      ctx.stderr.write(`${ctx.name}: -c requires an argument\n`);
      return 2;
    }
    text = args.shift() as string;
    name = args.shift() ?? ctx.name;
    positional = args;
  } else if (args.length > 0) {
    const file = args.shift() as string;
    try {
      text = ctx.shell.host.fs.read(resolvePath(ctx.shell.cwd, file));
    } catch {
      ctx.stderr.write(`${ctx.name}: can't open '${file}': No such file or directory\n`);
      return 2;
    }
    name = file;
    positional = args;
  } else {
    text = await ctx.stdin.readAll();
    positional = [];
  }
  const child: Shell = ctx.shell.child(name, positional, ctx.env);
  for (const o of options) for (const f of o.slice(1)) if (f === 'e' || f === 'x') child.setOption(f, true);
  return child.runText(text, ctx);
}

export const systemCommands: Record<string, CommandFn> = {
  sleep,
  date,
  hostname,
  env,
  printenv,
  id,
  whoami,
  uname,
  ps,
  kill,
  sh,
  bash: sh,
  ash: sh,
  dash: sh,
};
