/**
 * The first syntax error of a text that is not JSON, worded as Go's
 * `encoding/json` scanner words it (`invalid character '}' looking for
 * beginning of object key string`, `unexpected end of JSON input`) — the
 * words the real server puts in its 400s — with the offset, line and column
 * where it was found. Only runs after `JSON.parse` has refused the text.
 */

export interface SyntaxProblem {
  message: string;
  offset: number;
  line: number;
  column: number;
}

class Found extends Error {
  constructor(
    readonly why: string,
    readonly at: number,
  ) {
    super(why);
  }
}

const endOfInput = 'unexpected end of JSON input';

/** Go's `quoteChar`: how the scanner shows the offending character. */
export function quoteChar(ch: string): string {
  if (ch === "'") return `'\\''`;
  if (ch === '"') return `'"'`;
  const c = ch.codePointAt(0) ?? 0;
  const named: Record<number, string> = {
    7: '\\a',
    8: '\\b',
    9: '\\t',
    10: '\\n',
    11: '\\v',
    12: '\\f',
    13: '\\r',
    92: '\\\\',
  };
  const shown = named[c] ?? (c < 0x20 || c === 0x7f ? `\\x${c.toString(16).padStart(2, '0')}` : ch);
  return `'${shown}'`;
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\n' || c === '\r' || c === '\t';
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

/** Finds the first syntax error of `text`, or undefined when it is valid JSON. */
export function findSyntaxError(text: string): SyntaxProblem | undefined {
  let i = 0;
  const at = (k: number): string | undefined => text[k];
  const bad = (context: string): never => {
    const ch = at(i);
    if (ch === undefined) throw new Found(endOfInput, i);
    throw new Found(`invalid character ${quoteChar(ch)} ${context}`, i);
  };
  const skipSpace = (): void => {
    while (isSpace(at(i))) i++;
  };

  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (at(i) !== word[k]) bad(`in literal ${word} (expecting ${quoteChar(word[k] ?? '')})`);
    }
    i++;
  };

  const number = (): void => {
    if (at(i) === '-') {
      i++;
      if (!isDigit(at(i))) bad('in numeric literal');
    }
    if (at(i) === '0') i++;
    else while (isDigit(at(i))) i++;
    if (at(i) === '.') {
      i++;
      if (!isDigit(at(i))) bad('after decimal point in numeric literal');
      while (isDigit(at(i))) i++;
    }
    if (at(i) === 'e' || at(i) === 'E') {
      i++;
      if (at(i) === '+' || at(i) === '-') i++;
      if (!isDigit(at(i))) bad('in exponent of numeric literal');
      while (isDigit(at(i))) i++;
    }
  };

  const string = (): void => {
    i++;
    for (;;) {
      const ch = at(i);
      if (ch === undefined) bad('');
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        i++;
        const e = at(i);
        if (e === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (!isHex(at(i))) bad('in \\u hexadecimal character escape');
          }
        } else if (e === undefined || !'"\\/bfnrt'.includes(e)) bad('in string escape code');
        i++;
        continue;
      }
      if ((ch?.charCodeAt(0) ?? 0) < 0x20) bad('in string literal');
      i++;
    }
  };

  const value = (context: string): void => {
    skipSpace();
    const ch = at(i);
    if (ch === '{') {
      i++;
      skipSpace();
      if (at(i) === '}') {
        i++;
        return;
      }
      for (;;) {
        skipSpace();
        if (at(i) !== '"') bad('looking for beginning of object key string');
        string();
        skipSpace();
        if (at(i) !== ':') bad('after object key');
        i++;
        value('looking for beginning of value');
        skipSpace();
        if (at(i) === ',') {
          i++;
          continue;
        }
        if (at(i) === '}') {
          i++;
          return;
        }
        bad('after object key:value pair');
      }
    }
    if (ch === '[') {
      i++;
      skipSpace();
      if (at(i) === ']') {
        i++;
        return;
      }
      for (;;) {
        value('looking for beginning of value');
        skipSpace();
        if (at(i) === ',') {
          i++;
          continue;
        }
        if (at(i) === ']') {
          i++;
          return;
        }
        bad('after array element');
      }
    }
    if (ch === '"') return string();
    if (ch === '-' || isDigit(ch)) return number();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    bad(context);
  };

  try {
    value('looking for beginning of value');
    skipSpace();
    if (i < text.length) bad('after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof Found) return { message: e.why, offset: e.at, ...lineColumn(text, e.at) };
    if (e instanceof RangeError) return { message: 'exceeded max depth', offset: i, ...lineColumn(text, i) };
    throw e;
  }
}

/** 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k >= 0 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
