/**
 * The tree of a parsed shell script: what `parser.ts` makes and
 * `interpreter.ts` runs. It covers the part of the POSIX shell language
 * container commands use: simple commands with assignments and
 * redirections, pipelines, `&&`/`||`, `;`/newline/`&` lists, `{ }` and
 * `( )` groups, `if`, `while`/`until` and `for` loops, and words built of
 * quoted and unquoted text, parameter expansions, command substitutions and
 * arithmetic.
 */

export type WordPart =
  | { t: 'lit'; v: string; quoted: boolean }
  | { t: 'param'; name: string; op?: ParamOp; arg?: Word; quoted: boolean }
  | { t: 'cmd'; script: Script; quoted: boolean }
  | { t: 'arith'; expr: Word; quoted: boolean };

/** `${x:-w}`, `${#x}`, `${x%pat}` … (`len` is `${#x}`). */
export type ParamOp = ':-' | '-' | ':=' | '=' | ':+' | '+' | ':?' | '?' | 'len' | '%' | '%%' | '#' | '##';

export interface Word {
  parts: WordPart[];
}

export interface Redirect {
  /** The file descriptor redirected (0 stdin, 1 stdout, 2 stderr). */
  fd: number;
  op: '>' | '>>' | '<' | '>&';
  /** A file name, or for `>&` the descriptor number as text. */
  target: Word;
}

export interface SimpleCommand {
  t: 'simple';
  assignments: { name: string; value: Word }[];
  words: Word[];
  redirects: Redirect[];
}

export type Command =
  | SimpleCommand
  | { t: 'group'; body: Script; subshell: boolean; redirects: Redirect[] }
  | { t: 'if'; clauses: { cond: Script; body: Script }[]; otherwise?: Script; redirects: Redirect[] }
  | { t: 'loop'; until: boolean; cond: Script; body: Script; redirects: Redirect[] }
  | { t: 'for'; name: string; items?: Word[]; body: Script; redirects: Redirect[] }
  | { t: 'function'; name: string; body: Command };

export interface Pipeline {
  negated: boolean;
  commands: Command[];
}

export interface AndOr {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
  /** Ended by `&`: run in the background. */
  background: boolean;
}

export interface Script {
  items: AndOr[];
}
