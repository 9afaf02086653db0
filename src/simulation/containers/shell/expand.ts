/**
 * Word expansion as the shell performs it before running a command:
 * parameters (`$x`, `${x:-default}`, `${#x}`, `${x%.txt}`), command
 * substitutions (`$(date)`), arithmetic (`$((i+1))`), then field splitting
 * of what unquoted expansions produced and pathname expansion of unquoted
 * `*` and `?` against the container's files.
 */

import { evaluateArithmetic, ArithError } from './arith';
import type { Word, WordPart } from './syntax';

/** What expansion needs from the running shell. */
export interface ExpansionScope {
  param(name: string): string | undefined;
  /** `"$@"`: the positional parameters as separate fields. */
  positional(): string[];
  setVar(name: string, value: string): void;
  substitute(part: Extract<WordPart, { t: 'cmd' }>): Promise<string>;
  /** The names in the directory that match a pattern, for `*` and `?`. */
  glob(pattern: string): string[];
  cwd: string;
}

export class ExpansionError extends Error {}

/** A glob pattern (`*`, `?`, `[…]`) as a regular expression over a whole name. */
export function globToRegExp(pattern: string, anchored = true): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`;
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) re += '\\[';
      else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(anchored ? `^${re}$` : re, 's');
}

function removeAffix(value: string, pattern: string, op: '%' | '%%' | '#' | '##'): string {
  const re = globToRegExp(pattern);
  if (op === '#' || op === '##') {
    const lengths = [...Array(value.length + 1).keys()];
    if (op === '##') lengths.reverse();
    for (const n of lengths) if (re.test(value.slice(0, n))) return value.slice(n);
    return value;
  }
  const starts = [...Array(value.length + 1).keys()];
  if (op === '%') starts.reverse();
  for (const s of starts) if (re.test(value.slice(s))) return value.slice(0, s);
  return value;
}

async function expandParam(part: Extract<WordPart, { t: 'param' }>, scope: ExpansionScope): Promise<string> {
  const value = scope.param(part.name);
  const arg = async () => (part.arg === undefined ? '' : expandToString(part.arg, scope));
  switch (part.op) {
    case undefined:
      return value ?? '';
    case 'len':
      return String((value ?? '').length);
    case ':-':
      return value === undefined || value === '' ? arg() : value;
    case '-':
      return value === undefined ? arg() : value;
    case ':=':
    case '=':
      if (value === undefined || (part.op === ':=' && value === '')) {
        const v = await arg();
        scope.setVar(part.name, v);
        return v;
      }
      return value;
    case ':+':
      return value === undefined || value === '' ? '' : arg();
    case '+':
      return value === undefined ? '' : arg();
    case ':?':
    case '?':
      if (value === undefined || (part.op === ':?' && value === '')) {
        const message = await arg();
        throw new ExpansionError(`${part.name}: ${message === '' ? 'parameter not set' : message}`);
      }
      return value;
    default:
      return removeAffix(value ?? '', await arg(), part.op);
  }
}

/** A word expanded to one string: no splitting, no globbing (assignments, redirection targets, `${x:-w}`). */
export async function expandToString(word: Word, scope: ExpansionScope): Promise<string> {
  let out = '';
  for (const part of word.parts) out += await partText(part, scope);
  return out;
}

async function partText(part: WordPart, scope: ExpansionScope): Promise<string> {
  switch (part.t) {
    case 'lit':
      return part.v;
    case 'param':
      if (part.name === '@' || part.name === '*') return scope.positional().join(' ');
      return expandParam(part, scope);
    case 'cmd':
      // Trailing newlines of the output are removed, as the shell does.
      return (await scope.substitute(part)).replace(/\n+$/, '');
    case 'arith':
      try {
        return String(
          evaluateArithmetic(await expandToString(part.expr, scope), {
            get: (n) => scope.param(n),
            set: (n, v) => scope.setVar(n, v),
          }),
        );
      } catch (e) {
        if (e instanceof ArithError) throw new ExpansionError(e.message);
        throw e;
      }
  }
}

/** A word expanded to the fields a command receives. */
export async function expandWord(word: Word, scope: ExpansionScope): Promise<string[]> {
  const fields: { text: string; pattern: string; globbable: boolean }[] = [];
  let current: { text: string; pattern: string; globbable: boolean } | undefined;
  const append = (text: string, quoted: boolean) => {
    current ??= { text: '', pattern: '', globbable: false };
    current.text += text;
    current.pattern += quoted ? text.replace(/[*?[\\]/g, '\\$&') : text;
  };
  const end = () => {
    if (current !== undefined) fields.push(current);
    current = undefined;
  };
  for (const part of word.parts) {
    if (part.t === 'lit') {
      append(part.v, part.quoted);
      if (!part.quoted && /[*?[]/.test(part.v) && current !== undefined) current.globbable = true;
      continue;
    }
    if (part.t === 'param' && part.name === '@' && part.quoted) {
      const args = scope.positional();
      args.forEach((a, i) => {
        if (i > 0) end();
        append(a, true);
      });
      continue;
    }
    const text = await partText(part, scope);
    if (part.quoted) {
      append(text, true);
      continue;
    }
    // Unquoted expansions split on blanks; a leading or trailing blank separates from the neighbours.
    const pieces = text.split(/[ \t\n]+/);
    pieces.forEach((piece, i) => {
      if (i > 0) end();
      if (piece !== '') append(piece, true);
    });
  }
  end();
  const out: string[] = [];
  for (const f of fields) {
    if (f.globbable) {
      const matches = scope.glob(f.pattern);
      if (matches.length > 0) {
        out.push(...matches);
        continue;
      }
    }
    out.push(f.text);
  }
  return out;
}
