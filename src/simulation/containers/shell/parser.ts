/**
 * Reads shell script text into the tree of `syntax.ts`: a scanner that cuts
 * words (keeping quoting, `$…` expansions and `$(…)` substitutions as parts)
 * and operators, and a recursive-descent parser over the POSIX grammar's
 * lists, and-or lists, pipelines and compound commands. Errors are
 * `ShellSyntaxError`s worded as busybox's shell words them (`syntax error:
 * unexpected "done"`), the shell of the images scripts usually run in.
 */

import type {
  AndOr,
  Command,
  ParamOp,
  Pipeline,
  Redirect,
  Script,
  SimpleCommand,
  Word,
  WordPart,
} from './syntax';

export class ShellSyntaxError extends Error {}

type Token =
  | { k: 'word'; word: Word; raw: string }
  | { k: 'op'; v: string }
  | { k: 'redir'; fd: number; op: Redirect['op'] }
  | { k: 'nl' }
  | { k: 'eof' };

const operatorChars = new Set([';', '&', '|', '(', ')', '<', '>']);
const reserved = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'while',
  'until',
  'do',
  'done',
  'for',
  'in',
  '{',
  '}',
  '!',
]);
const nameRe = /^[A-Za-z_][A-Za-z0-9_]*$/;

class Scanner {
  private i = 0;
  constructor(private readonly src: string) {}

  private peekChar(offset = 0): string {
    return this.src[this.i + offset] ?? '';
  }

  next(): Token {
    for (;;) {
      const c = this.peekChar();
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (c === '\\' && this.peekChar(1) === '\n') this.i += 2;
      else if (c === '#') while (this.i < this.src.length && this.peekChar() !== '\n') this.i++;
      else break;
    }
    if (this.i >= this.src.length) return { k: 'eof' };
    const c = this.peekChar();
    if (c === '\n') {
      this.i++;
      return { k: 'nl' };
    }
    // An IO number: digits right before a redirection operator.
    const io = /^(\d)(?=[<>])/.exec(this.src.slice(this.i, this.i + 2));
    if (io !== null) {
      this.i += 1;
      return this.redirect(Number(io[1]));
    }
    if (c === '<' || c === '>') return this.redirect(c === '<' ? 0 : 1);
    if (c === '&' && this.peekChar(1) === '>') {
      // `&>file`: stdout and stderr to the file (a bash form busybox accepts).
      this.i += 2;
      return { k: 'redir', fd: -1, op: '>' };
    }
    if (operatorChars.has(c)) {
      const two = this.src.slice(this.i, this.i + 2);
      if (two === '&&' || two === '||' || two === ';;') {
        this.i += 2;
        return { k: 'op', v: two };
      }
      this.i++;
      return { k: 'op', v: c };
    }
    const start = this.i;
    const word = this.word(false);
    return { k: 'word', word, raw: this.src.slice(start, this.i) };
  }

  private redirect(fd: number): Token {
    const c = this.peekChar();
    this.i++;
    if (c === '<') return { k: 'redir', fd, op: '<' };
    if (this.peekChar() === '>') {
      this.i++;
      return { k: 'redir', fd, op: '>>' };
    }
    if (this.peekChar() === '&') {
      this.i++;
      return { k: 'redir', fd, op: '>&' };
    }
    return { k: 'redir', fd, op: '>' };
  }

  /**
   * A word up to an unquoted blank or operator; in double quotes (`inQuotes`) up to the closing quote; with
   * `toEnd`, the whole rest of the text (the inside of `$((…))` or of `${x:-…}`).
   */
  word(inQuotes: boolean, toEnd = false): Word {
    const parts: WordPart[] = [];
    let lit = '';
    const flush = (quoted: boolean) => {
      if (lit !== '') parts.push({ t: 'lit', v: lit, quoted });
      lit = '';
    };
    for (;;) {
      const c = this.peekChar();
      if (c === '') {
        if (inQuotes && !toEnd) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        break;
      }
      if (inQuotes && !toEnd && c === '"') break;
      if (
        !inQuotes &&
        !toEnd &&
        (c === ' ' || c === '\t' || c === '\n' || c === '\r' || operatorChars.has(c))
      )
        break;
      if (c === '\\') {
        const n = this.peekChar(1);
        this.i += 2;
        if (n === '\n') continue;
        if (inQuotes && !['$', '`', '"', '\\'].includes(n)) lit += `\\${n}`;
        else {
          flush(inQuotes);
          parts.push({ t: 'lit', v: n, quoted: true });
        }
        continue;
      }
      if (!inQuotes && c === "'") {
        flush(false);
        const end = this.src.indexOf("'", this.i + 1);
        if (end < 0) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        parts.push({ t: 'lit', v: this.src.slice(this.i + 1, end), quoted: true });
        this.i = end + 1;
        continue;
      }
      if (!inQuotes && c === '"') {
        flush(false);
        this.i++;
        const inner = this.word(true);
        this.i++; // the closing quote
        // "" is an empty argument, not nothing.
        parts.push(
          ...(inner.parts.length === 0 ? [{ t: 'lit' as const, v: '', quoted: true }] : inner.parts),
        );
        continue;
      }
      if (c === '$') {
        const part = this.dollar(inQuotes);
        if (part !== undefined) {
          flush(inQuotes);
          parts.push(part);
          continue;
        }
      }
      if (c === '`') {
        flush(inQuotes);
        const end = this.src.indexOf('`', this.i + 1);
        if (end < 0) throw new ShellSyntaxError('syntax error: unterminated quoted string');
        parts.push({ t: 'cmd', script: parseScript(this.src.slice(this.i + 1, end)), quoted: inQuotes });
        this.i = end + 1;
        continue;
      }
      lit += c;
      this.i++;
    }
    flush(inQuotes);
    return { parts };
  }

  /** A `$` expansion at the cursor, or undefined when the `$` is literal. */
  private dollar(quoted: boolean): WordPart | undefined {
    const rest = this.src.slice(this.i + 1);
    if (rest.startsWith('((')) {
      const end = this.matching(this.i + 3, '(', ')');
      if (this.src[end + 1] !== ')') throw new ShellSyntaxError('syntax error: missing ))');
      const text = this.src.slice(this.i + 3, end);
      this.i = end + 2;
      return { t: 'arith', expr: new Scanner(text).word(false, true), quoted };
    }
    if (rest.startsWith('(')) {
      const end = this.matching(this.i + 2, '(', ')');
      const script = parseScript(this.src.slice(this.i + 2, end));
      this.i = end + 1;
      return { t: 'cmd', script, quoted };
    }
    if (rest.startsWith('{')) {
      const end = this.matching(this.i + 2, '{', '}');
      const inner = this.src.slice(this.i + 2, end);
      this.i = end + 1;
      return this.braced(inner, quoted);
    }
    const special = /^[?$#@*!0-9-]/.exec(rest);
    if (special !== null) {
      this.i += 2;
      return { t: 'param', name: special[0], quoted };
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name === null) return undefined;
    this.i += 1 + name[0].length;
    return { t: 'param', name: name[0], quoted };
  }

  private braced(inner: string, quoted: boolean): WordPart {
    if (inner.startsWith('#') && inner.length > 1)
      return { t: 'param', name: inner.slice(1), op: 'len', quoted };
    const m = /^([A-Za-z_][A-Za-z0-9_]*|[?$#@*!0-9])(:-|:=|:\+|:\?|-|=|\+|\?|%%|%|##|#)?([\s\S]*)$/.exec(
      inner,
    );
    if (m === null) throw new ShellSyntaxError(`syntax error: bad substitution`);
    const [, name = '', op, arg = ''] = m;
    if (op === undefined) {
      if (arg !== '') throw new ShellSyntaxError(`syntax error: bad substitution`);
      return { t: 'param', name, quoted };
    }
    return { t: 'param', name, op: op as ParamOp, arg: new Scanner(arg).word(false, true), quoted };
  }

  /** The index of the bracket closing the one opened just before `from`, skipping quoted text. */
  private matching(from: number, open: string, close: string): number {
    let depth = 1;
    for (let j = from; j < this.src.length; j++) {
      const c = this.src[j];
      if (c === '\\') j++;
      else if (c === "'") {
        const end = this.src.indexOf("'", j + 1);
        if (end < 0) break;
        j = end;
      } else if (c === '"') {
        for (j++; j < this.src.length && this.src[j] !== '"'; j++) if (this.src[j] === '\\') j++;
      } else if (c === open) depth++;
      else if (c === close && --depth === 0) return j;
    }
    throw new ShellSyntaxError(`syntax error: missing ${close}`);
  }
}

/** The literal text of a word made only of unquoted literals (reserved words, names), else undefined. */
function plainText(word: Word): string | undefined {
  if (word.parts.length !== 1) return undefined;
  const p = word.parts[0];
  return p?.t === 'lit' && !p.quoted ? p.v : undefined;
}

class Parser {
  private tok: Token;
  constructor(private readonly scanner: Scanner) {
    this.tok = scanner.next();
  }

  private advance(): Token {
    const t = this.tok;
    this.tok = this.scanner.next();
    return t;
  }

  /** Whether the current token is operator `v` (a method, so that checks after `advance` are not narrowed away). */
  private atOp(v: string): boolean {
    return this.tok.k === 'op' && this.tok.v === v;
  }

  private isReserved(word: string): boolean {
    return this.tok.k === 'word' && plainText(this.tok.word) === word;
  }

  private unexpected(): ShellSyntaxError {
    const t = this.tok;
    const text =
      t.k === 'eof'
        ? 'end of file'
        : t.k === 'nl'
          ? 'newline'
          : t.k === 'op'
            ? t.v
            : t.k === 'word'
              ? t.raw
              : 'redirection';
    return new ShellSyntaxError(`syntax error: unexpected ${t.k === 'eof' ? text : `"${text}"`}`);
  }

  private expectReserved(word: string): void {
    if (!this.isReserved(word)) throw this.unexpected();
    this.advance();
  }

  private linebreak(): void {
    while (this.tok.k === 'nl') this.advance();
  }

  /** Whether the token ends the current list (a closing reserved word, `)`, or the end). */
  private atListEnd(): boolean {
    const t = this.tok;
    if (t.k === 'eof') return true;
    if (t.k === 'op') return t.v === ')' || t.v === ';;';
    if (t.k !== 'word') return false;
    const text = plainText(t.word);
    return text !== undefined && ['then', 'elif', 'else', 'fi', 'do', 'done', '}'].includes(text);
  }

  program(): Script {
    const script = this.list();
    if (this.tok.k !== 'eof') throw this.unexpected();
    return script;
  }

  list(): Script {
    const items: AndOr[] = [];
    this.linebreak();
    while (!this.atListEnd()) {
      const item = this.andOr();
      items.push(item);
      if (this.tok.k === 'op' && (this.tok.v === ';' || this.tok.v === '&')) {
        item.background = this.tok.v === '&';
        this.advance();
      } else if (this.tok.k !== 'nl' && !this.atListEnd()) throw this.unexpected();
      this.linebreak();
    }
    return { items };
  }

  private andOr(): AndOr {
    const first = this.pipeline();
    const rest: AndOr['rest'] = [];
    while (this.tok.k === 'op' && (this.tok.v === '&&' || this.tok.v === '||')) {
      const op = this.advance() as { k: 'op'; v: '&&' | '||' };
      this.linebreak();
      rest.push({ op: op.v, pipeline: this.pipeline() });
    }
    return { first, rest, background: false };
  }

  private pipeline(): Pipeline {
    let negated = false;
    if (this.isReserved('!')) {
      negated = true;
      this.advance();
    }
    const commands = [this.command()];
    while (this.tok.k === 'op' && this.tok.v === '|') {
      this.advance();
      this.linebreak();
      commands.push(this.command());
    }
    return { negated, commands };
  }

  private command(): Command {
    const t = this.tok;
    if (t.k === 'op' && t.v === '(') {
      this.advance();
      const body = this.list();
      if (!(this.tok.k === 'op' && this.tok.v === ')')) throw this.unexpected();
      this.advance();
      return { t: 'group', body, subshell: true, redirects: this.redirects() };
    }
    if (t.k === 'word') {
      const text = plainText(t.word);
      switch (text) {
        case '{': {
          this.advance();
          const body = this.list();
          this.expectReserved('}');
          return { t: 'group', body, subshell: false, redirects: this.redirects() };
        }
        case 'if':
          return this.ifCommand();
        case 'while':
        case 'until': {
          this.advance();
          const cond = this.list();
          this.expectReserved('do');
          const body = this.list();
          this.expectReserved('done');
          return { t: 'loop', until: text === 'until', cond, body, redirects: this.redirects() };
        }
        case 'for':
          return this.forCommand();
        default:
          if (text !== undefined && reserved.has(text)) throw this.unexpected();
      }
    }
    return this.simple();
  }

  private ifCommand(): Command {
    this.advance();
    const clauses: { cond: Script; body: Script }[] = [];
    let otherwise: Script | undefined;
    for (;;) {
      const cond = this.list();
      this.expectReserved('then');
      clauses.push({ cond, body: this.list() });
      if (this.isReserved('elif')) {
        this.advance();
        continue;
      }
      if (this.isReserved('else')) {
        this.advance();
        otherwise = this.list();
      }
      this.expectReserved('fi');
      break;
    }
    return {
      t: 'if',
      clauses,
      ...(otherwise !== undefined ? { otherwise } : {}),
      redirects: this.redirects(),
    };
  }

  private forCommand(): Command {
    this.advance();
    const nameTok = this.tok;
    const name = nameTok.k === 'word' ? plainText(nameTok.word) : undefined;
    if (name === undefined || !nameRe.test(name)) throw this.unexpected();
    this.advance();
    this.linebreak();
    let items: Word[] | undefined;
    if (this.isReserved('in')) {
      this.advance();
      items = [];
      while (this.tok.k === 'word') items.push((this.advance() as { word: Word }).word);
    }
    if (this.tok.k === 'op' && this.tok.v === ';') this.advance();
    this.linebreak();
    this.expectReserved('do');
    const body = this.list();
    this.expectReserved('done');
    return { t: 'for', name, ...(items !== undefined ? { items } : {}), body, redirects: this.redirects() };
  }

  private redirects(): Redirect[] {
    const out: Redirect[] = [];
    while (this.tok.k === 'redir') out.push(this.redirect());
    return out;
  }

  private redirect(): Redirect {
    const r = this.advance() as { k: 'redir'; fd: number; op: Redirect['op'] };
    if (this.tok.k !== 'word') throw this.unexpected();
    const target = (this.advance() as { word: Word }).word;
    return { fd: r.fd, op: r.op, target };
  }

  private simple(): Command {
    const cmd: SimpleCommand = { t: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      const t = this.tok;
      if (t.k === 'redir') cmd.redirects.push(this.redirect());
      else if (t.k === 'word') {
        const first = t.word.parts[0];
        const assignment =
          first?.t === 'lit' && !first.quoted ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.v) : null;
        if (cmd.words.length === 0 && assignment !== null && first?.t === 'lit') {
          const value: Word = {
            parts: [{ ...first, v: first.v.slice(assignment[0].length) }, ...t.word.parts.slice(1)],
          };
          cmd.assignments.push({ name: assignment[1] ?? '', value });
          this.advance();
          continue;
        }
        // `name() { …; }`: a function definition.
        if (cmd.words.length === 0 && cmd.assignments.length === 0) {
          const text = plainText(t.word);
          if (text !== undefined && nameRe.test(text)) {
            this.advance();
            if (this.atOp('(')) {
              this.advance();
              if (!this.atOp(')')) throw this.unexpected();
              this.advance();
              this.linebreak();
              return { t: 'function', name: text, body: this.command() };
            }
            cmd.words.push(t.word);
            continue;
          }
        }
        cmd.words.push(t.word);
        this.advance();
      } else break;
    }
    if (cmd.words.length === 0 && cmd.assignments.length === 0 && cmd.redirects.length === 0)
      throw this.unexpected();
    return cmd;
  }
}

/** Parses a whole script (`sh -c` text, a `$(…)` body, one line typed in an exec session). */
export function parseScript(text: string): Script {
  return new Parser(new Scanner(text)).program();
}
