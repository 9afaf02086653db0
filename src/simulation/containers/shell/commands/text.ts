/**
 * Text programs of the images' userland (busybox applets, coreutils):
 * `cat`, `head`, `tail`, `wc`, `grep`, `sort`, `uniq`, `tr`, `cut`, `seq`,
 * `expr`, `basename`, `dirname`, `yes`-free. Each reads its files (from
 * the container's files) or standard input, and writes what the real one
 * writes for the common options, with busybox's error texts.
 */

import type { CommandContext, CommandFn } from '../interpreter';
import { FsError, resolvePath } from '../../filesystem';

/** Short options before the operands (`-n 5`, `-n5`, `-5`, `-vi`); `valued` names options that take a value. */
function options(args: string[], valued: string): { flags: Map<string, string>; operands: string[] } {
  const flags = new Map<string, string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(a);
      continue;
    }
    if (/^-\d+$/.test(a)) {
      flags.set('n', a.slice(1));
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const f = a[j] ?? '';
      if (valued.includes(f)) {
        flags.set(f, j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
        break;
      }
      flags.set(f, '');
    }
  }
  return { flags, operands };
}

/** The texts of the operands, or stdin when there are none (`-` is stdin too); errors are written and counted. */
async function inputs(
  ctx: CommandContext,
  operands: string[],
  tool: string,
): Promise<{ texts: string[]; failed: boolean }> {
  if (operands.length === 0) return { texts: [await ctx.stdin.readAll()], failed: false };
  const texts: string[] = [];
  let failed = false;
  for (const f of operands) {
    if (f === '-') {
      texts.push(await ctx.stdin.readAll());
      continue;
    }
    try {
      texts.push(ctx.shell.host.fs.read(resolvePath(ctx.shell.cwd, f)));
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      ctx.stderr.write(
        `${tool}: ${e.why === 'EISDIR' ? `read error: ${FsError.text[e.why]}` : `can't open '${f}': ${FsError.text[e.why]}`}\n`,
      );
      failed = true;
    }
  }
  return { texts, failed };
}

function lines(text: string): string[] {
  if (text === '') return [];
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

const joinLines = (ls: string[]): string => ls.map((l) => `${l}\n`).join('');

async function cat(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, '');
  const { texts, failed } = await inputs(ctx, operands, 'cat');
  let text = texts.join('');
  if (flags.has('n')) text = joinLines(lines(text).map((l, i) => `${String(i + 1).padStart(6)}\t${l}`));
  ctx.stdout.write(text);
  return failed ? 1 : 0;
}

function headTail(which: 'head' | 'tail'): CommandFn {
  return async (ctx) => {
    const { flags, operands } = options(ctx.args, 'nc');
    const { texts, failed } = await inputs(ctx, operands, which);
    const spec = flags.get('n') ?? '10';
    const n = Number(spec.replace(/^[+-]/, ''));
    if (!Number.isInteger(n)) {
      ctx.stderr.write(`${which}: invalid number '${spec}'\n`);
      return 1;
    }
    for (const text of texts) {
      const ls = lines(text);
      const picked =
        which === 'head'
          ? ls.slice(0, n)
          : spec.startsWith('+')
            ? ls.slice(Math.max(0, n - 1))
            : ls.slice(Math.max(0, ls.length - n));
      ctx.stdout.write(joinLines(picked));
    }
    return failed ? 1 : 0;
  };
}

async function wc(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, '');
  const { texts, failed } = await inputs(ctx, operands, 'wc');
  const which = ['l', 'w', 'c'].filter((f) => flags.has(f) || (f === 'c' && flags.has('m')));
  const shown = which.length > 0 ? which : ['l', 'w', 'c'];
  const count = (t: string) => ({
    l: (t.match(/\n/g) ?? []).length,
    w: t.split(/\s+/).filter((x) => x !== '').length,
    c: new TextEncoder().encode(t).length,
  });
  texts.forEach((t, i) => {
    const c = count(t);
    const figures = shown.map((f) => c[f as 'l' | 'w' | 'c']);
    const name = operands[i];
    const text =
      shown.length === 1 && name === undefined
        ? String(figures[0])
        : figures.map((f) => String(f).padStart(7)).join(' ');
    ctx.stdout.write(`${text}${name !== undefined ? ` ${name}` : ''}\n`);
  });
  return failed ? 1 : 0;
}

async function grep(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, 'e');
  const pattern = flags.get('e') ?? operands.shift();
  if (pattern === undefined) {
    ctx.stderr.write(
      'Usage: grep [-HhnlLoqvsrRiwFE] [-m N] [-A|B|C N] { PATTERN | -e PATTERN... | -f FILE... } [FILE]...\n',
    );
    return 2;
  }
  let re: RegExp;
  try {
    const source = flags.has('F')
      ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      : flags.has('E')
        ? pattern
        : basicToExtended(pattern);
    re = new RegExp(flags.has('w') ? `\\b(?:${source})\\b` : source, flags.has('i') ? 'i' : '');
  } catch {
    ctx.stderr.write(`grep: bad regex '${pattern}'\n`);
    return 2;
  }
  const { texts, failed } = await inputs(ctx, operands, 'grep');
  let matched = 0;
  const many = operands.length > 1;
  texts.forEach((t, i) => {
    lines(t).forEach((line, n) => {
      if (re.test(line) === flags.has('v')) return;
      matched++;
      if (flags.has('q') || flags.has('c')) return;
      ctx.stdout.write(`${many ? `${operands[i]}:` : ''}${flags.has('n') ? `${n + 1}:` : ''}${line}\n`);
    });
  });
  if (flags.has('c')) ctx.stdout.write(`${matched}\n`);
  if (failed && !flags.has('s')) return 2;
  return matched > 0 ? 0 : 1;
}

/** A basic regular expression in the extended syntax: `\(`, `\|`, `\{` are the operators there, plain ones literal. */
function basicToExtended(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i] ?? '';
      out += '(){}|+?'.includes(n) ? n : `\\${n}`;
    } else out += '(){}|+?'.includes(c) ? `\\${c}` : c;
  }
  return out;
}

async function sort(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, 'tk');
  const { texts, failed } = await inputs(ctx, operands, 'sort');
  let ls = texts.flatMap(lines);
  if (flags.has('n')) ls.sort((a, b) => (parseFloat(a) || 0) - (parseFloat(b) || 0));
  else ls.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (flags.has('r')) ls.reverse();
  if (flags.has('u')) ls = ls.filter((l, i) => i === 0 || l !== ls[i - 1]);
  ctx.stdout.write(joinLines(ls));
  return failed ? 1 : 0;
}

async function uniq(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, '');
  const { texts, failed } = await inputs(ctx, operands.slice(0, 1), 'uniq');
  const groups: { line: string; count: number }[] = [];
  for (const line of texts.flatMap(lines)) {
    const last = groups[groups.length - 1];
    if (last !== undefined && last.line === line) last.count++;
    else groups.push({ line, count: 1 });
  }
  for (const g of groups) {
    if (flags.has('d') && g.count < 2) continue;
    if (flags.has('u') && g.count > 1) continue;
    ctx.stdout.write(flags.has('c') ? `${String(g.count).padStart(7)} ${g.line}\n` : `${g.line}\n`);
  }
  return failed ? 1 : 0;
}

/** `tr`'s character sets: ranges (`a-z`) and the classes `[:upper:]`, `[:lower:]`, `[:digit:]`, `[:space:]`. */
function charSet(spec: string): string[] {
  const classes: Record<string, string> = {
    '[:upper:]': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '[:lower:]': 'abcdefghijklmnopqrstuvwxyz',
    '[:digit:]': '0123456789',
    '[:space:]': ' \t\n\r\f\v',
    '[:alpha:]': 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  };
  const out: string[] = [];
  for (let i = 0; i < spec.length; i++) {
    const cls = Object.keys(classes).find((k) => spec.startsWith(k, i));
    if (cls !== undefined) {
      out.push(...(classes[cls] ?? ''));
      i += cls.length - 1;
      continue;
    }
    let c = spec[i] ?? '';
    if (c === '\\' && i + 1 < spec.length) {
      const n = spec[++i] ?? '';
      c = n === 'n' ? '\n' : n === 't' ? '\t' : n;
    }
    if (spec[i + 1] === '-' && i + 2 < spec.length) {
      const end = spec.charCodeAt(i + 2);
      for (let code = c.charCodeAt(0); code <= end; code++) out.push(String.fromCharCode(code));
      i += 2;
    } else out.push(c);
  }
  return out;
}

async function tr(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, '');
  const text = await ctx.stdin.readAll();
  const from = charSet(operands[0] ?? '');
  if (flags.has('d')) {
    ctx.stdout.write([...text].filter((c) => !from.includes(c)).join(''));
    return 0;
  }
  const to = charSet(operands[1] ?? '');
  ctx.stdout.write(
    [...text]
      .map((c) => {
        const i = from.indexOf(c);
        return i < 0 ? c : (to[Math.min(i, to.length - 1)] ?? c);
      })
      .join(''),
  );
  return 0;
}

async function cut(ctx: CommandContext): Promise<number> {
  const { flags, operands } = options(ctx.args, 'dfc');
  const { texts, failed } = await inputs(ctx, operands, 'cut');
  const list = flags.get('f') ?? flags.get('c') ?? '';
  const wanted = (n: number) =>
    list.split(',').some((r) => {
      const [a, b] = r.split('-');
      const lo = a === '' || a === undefined ? 1 : Number(a);
      const hi = b === undefined ? lo : b === '' ? Infinity : Number(b);
      return n >= lo && n <= hi;
    });
  const delimiter = flags.get('d') ?? '\t';
  for (const line of texts.flatMap(lines)) {
    if (flags.has('c')) ctx.stdout.write(`${[...line].filter((_, i) => wanted(i + 1)).join('')}\n`);
    else if (!line.includes(delimiter)) ctx.stdout.write(`${line}\n`);
    else
      ctx.stdout.write(
        `${line
          .split(delimiter)
          .filter((_, i) => wanted(i + 1))
          .join(delimiter)}\n`,
      );
  }
  return failed ? 1 : 0;
}

async function seq(ctx: CommandContext): Promise<number> {
  const nums = ctx.args.filter((a) => !/^-[a-z]/.test(a)).map(Number);
  if (nums.length === 0 || nums.some((n) => !Number.isFinite(n))) {
    ctx.stderr.write(`seq: invalid number '${ctx.args.find((a) => !Number.isFinite(Number(a))) ?? ''}'\n`);
    return 1;
  }
  const [first, step, last] =
    nums.length === 1
      ? [1, 1, nums[0] ?? 1]
      : nums.length === 2
        ? [nums[0] ?? 1, 1, nums[1] ?? 1]
        : (nums as [number, number, number]);
  let out = '';
  for (let v = first, i = 0; step > 0 ? v <= last : v >= last; v += step, i++) {
    out += `${v}\n`;
    // Long sequences are written in chunks, so a loop over `seq 1 1000000` costs time, not memory at once.
    if (i % 10_000 === 9_999) {
      ctx.stdout.write(out);
      out = '';
      await ctx.shell.host.tick();
    }
  }
  ctx.stdout.write(out);
  return 0;
}

async function expr(ctx: CommandContext): Promise<number> {
  const a = ctx.args;
  let value: string;
  const int = (s: string | undefined) => Number(s ?? 'x');
  if (a.length === 3) {
    const [x = '', op, y = ''] = a;
    const bothInt = /^-?\d+$/.test(x) && /^-?\d+$/.test(y);
    switch (op) {
      case '+':
        value = String(int(x) + int(y));
        break;
      case '-':
        value = String(int(x) - int(y));
        break;
      case '*':
        value = String(int(x) * int(y));
        break;
      case '/':
        if (int(y) === 0) {
          ctx.stderr.write('expr: division by zero\n');
          return 2;
        }
        value = String(Math.trunc(int(x) / int(y)));
        break;
      case '%':
        value = String(int(x) % int(y));
        break;
      case '=':
        value = x === y ? '1' : '0';
        break;
      case '!=':
        value = x !== y ? '1' : '0';
        break;
      case '<':
      case '>':
      case '<=':
      case '>=': {
        const c = bothInt ? int(x) - int(y) : x < y ? -1 : x > y ? 1 : 0;
        value = (op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0) ? '1' : '0';
        break;
      }
      case ':': {
        const m = new RegExp(`^(?:${basicToExtended(y)})`).exec(x);
        value = m === null ? '0' : m[1] !== undefined ? m[1] : String(m[0].length);
        break;
      }
      default:
        ctx.stderr.write('expr: syntax error\n');
        return 2;
    }
    if (value === 'NaN') {
      ctx.stderr.write('expr: non-numeric argument\n');
      return 2;
    }
  } else if (a.length === 2 && a[0] === 'length') value = String((a[1] ?? '').length);
  else if (a.length === 1) value = a[0] ?? '';
  else {
    ctx.stderr.write('expr: syntax error\n');
    return 2;
  }
  ctx.stdout.write(`${value}\n`);
  return value === '0' || value === '' ? 1 : 0;
}

async function basename(ctx: CommandContext): Promise<number> {
  const [path = '', suffix] = ctx.args;
  let base = path.replace(/\/+$/, '');
  base = base.slice(base.lastIndexOf('/') + 1) || (path.startsWith('/') ? '/' : '');
  if (suffix !== undefined && base.endsWith(suffix) && base !== suffix) base = base.slice(0, -suffix.length);
  ctx.stdout.write(`${base}\n`);
  return 0;
}

async function dirname(ctx: CommandContext): Promise<number> {
  const path = (ctx.args[0] ?? '').replace(/\/+$/, '');
  const i = path.lastIndexOf('/');
  ctx.stdout.write(`${i < 0 ? '.' : i === 0 ? '/' : path.slice(0, i)}\n`);
  return 0;
}

export const textCommands: Record<string, CommandFn> = {
  cat,
  head: headTail('head'),
  tail: headTail('tail'),
  wc,
  grep,
  sort,
  uniq,
  tr,
  cut,
  seq,
  expr,
  basename,
  dirname,
};
