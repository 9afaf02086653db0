/**
 * YAML exactly as kubectl prints it: sigs.k8s.io/yaml turns the object's
 * JSON into YAML with gopkg.in/yaml.v2, so keys are sorted by yaml.v2's
 * "natural" order (non-letters before letters, digit runs by value), block
 * sequences sit at their key's indentation, strings that would read as
 * another type are double-quoted, multi-line strings become literal blocks
 * (`|`, `|-`, `|+`), and plain or quoted scalars fold at the first space
 * past column 80 onto a line indented two more than their key. The scalar
 * analysis and style choice follow yaml.v2's emitter (emitterc.go) rule by
 * rule, written from its documented behaviour.
 */

const bestWidth = 80;

/** The YAML text of one JSON value, ending with a newline. */
export function toYaml(value: unknown): string {
  const e = new Emitter();
  e.node(value, 0, 'root');
  if (!e.out.endsWith('\n')) e.out += '\n';
  return e.out;
}

type Context = 'root' | 'mapValue' | 'seqItem';

class Emitter {
  out = '';
  column = 0;

  private write(text: string): void {
    this.out += text;
    const nl = text.lastIndexOf('\n');
    this.column = nl < 0 ? this.column + [...text].length : [...text.slice(nl + 1)].length;
  }

  private newline(indent: number): void {
    this.write('\n' + ' '.repeat(indent));
  }

  /** Emits `value` whose block content starts at `indent` (its own lines) in the given context. */
  node(value: unknown, indent: number, context: Context): void {
    if (isMap(value)) {
      const keys = Object.keys(value).sort(yamlKeyLess);
      if (keys.length === 0) return this.inlineScalar('{}', context);
      if (context === 'mapValue') this.newline(indent);
      else if (context === 'seqItem') this.write(' ');
      keys.forEach((key, i) => {
        if (i > 0) this.newline(indent);
        this.scalar(key, indent, true);
        this.write(':');
        const v = value[key];
        const child = v;
        if (isList(child) && child.length > 0) this.node(child, indent, 'mapValue');
        else this.node(child, indent + 2, 'mapValue');
      });
      return;
    }
    if (isList(value)) {
      if (value.length === 0) return this.inlineScalar('[]', context);
      if (context === 'mapValue') this.newline(indent);
      value.forEach((item, i) => {
        if (i > 0) this.newline(indent);
        this.write('-');
        if (isList(item) && item.length > 0) {
          this.write(' ');
          this.seqInSeq(item, indent + 2);
        } else this.node(item, indent + 2, 'seqItem');
      });
      return;
    }
    if (context !== 'root') this.write(' ');
    this.scalarValue(value, indent);
  }

  /** A sequence directly inside a sequence item: `- - a`. */
  private seqInSeq(items: unknown[], indent: number): void {
    items.forEach((item, i) => {
      if (i > 0) this.newline(indent);
      this.write('-');
      if (isList(item) && item.length > 0) {
        this.write(' ');
        this.seqInSeq(item, indent + 2);
      } else this.node(item, indent + 2, 'seqItem');
    });
  }

  private inlineScalar(text: string, context: Context): void {
    if (context !== 'root') this.write(' ');
    this.write(text);
  }

  private scalarValue(value: unknown, indent: number): void {
    if (value === null || value === undefined) return this.write('null');
    if (typeof value === 'boolean') return this.write(value ? 'true' : 'false');
    if (typeof value === 'number') return this.write(goFloatText(value));
    this.scalar(String(value), indent, false);
  }

  /**
   * A string scalar at the current position; continuation lines (folds,
   * literal block lines) are indented at `indent`. Keys (`simpleKey`) never fold.
   */
  private scalar(text: string, indent: number, simpleKey: boolean): void {
    const style = chooseStyle(text, simpleKey);
    switch (style) {
      case 'plain':
        return this.writePlain(text, indent, !simpleKey);
      case 'single':
        return this.writeSingle(text, indent, !simpleKey);
      case 'double':
        return this.writeDouble(text, indent, !simpleKey);
      case 'literal':
        return this.writeLiteral(text, indent);
    }
  }

  private writePlain(text: string, indent: number, allowBreaks: boolean): void {
    const chars = [...text];
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (c === ' ') {
        if (allowBreaks && !spaces && this.column > bestWidth && chars[i + 1] !== ' ') this.newline(indent);
        else this.write(c);
        spaces = true;
      } else {
        this.write(c);
        spaces = false;
      }
    }
  }

  private writeSingle(text: string, indent: number, allowBreaks: boolean): void {
    this.write("'");
    const chars = [...text];
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      if (c === ' ') {
        if (
          allowBreaks &&
          !spaces &&
          this.column > bestWidth &&
          i > 0 &&
          i < chars.length - 1 &&
          chars[i + 1] !== ' '
        )
          this.newline(indent);
        else this.write(c);
        spaces = true;
      } else {
        if (c === "'") this.write("'");
        this.write(c);
        spaces = false;
      }
    }
    this.write("'");
  }

  private writeDouble(text: string, indent: number, allowBreaks: boolean): void {
    this.write('"');
    const chars = [...text];
    let spaces = false;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] as string;
      const cp = c.codePointAt(0) as number;
      if (!isPrintable(cp) || cp === 0xfeff || isBreak(c) || c === '"' || c === '\\') {
        this.write(escapeDouble(cp));
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.column > bestWidth && i !== 0 && i !== chars.length - 1) {
          this.newline(indent);
          if (chars[i + 1] === ' ') this.write('\\');
        } else this.write(c);
        spaces = true;
      } else {
        this.write(c);
        spaces = false;
      }
    }
    this.write('"');
  }

  private writeLiteral(text: string, indent: number): void {
    this.write('|');
    const chars = [...text];
    if (chars[0] === ' ' || isBreak(chars[0] ?? '')) this.write('2');
    const last = chars[chars.length - 1] ?? '';
    if (chars.length === 0 || !isBreak(last)) this.write('-');
    else if (chars.length === 1 || isBreak(chars[chars.length - 2] as string)) this.write('+');
    // Each line of the content at the block's indentation; empty lines stay empty.
    const body = text.replace(/(\r\n|\r|\n|\u0085|\u2028|\u2029)$/, '');
    const lines = body.split(/\r\n|\r|\n|\u0085|\u2028|\u2029/);
    const trailing = chars.length > 0 && isBreak(last);
    for (const line of lines) {
      this.write('\n');
      if (line !== '') this.write(' '.repeat(indent) + line);
    }
    if (trailing && chars.length > 1 && isBreak(chars[chars.length - 2] as string)) {
      // `|+`: the extra trailing line breaks are kept as empty lines.
    }
  }
}

type Style = 'plain' | 'single' | 'double' | 'literal';

function chooseStyle(text: string, simpleKey: boolean): Style {
  // yaml.v2's encoder: strings that would resolve to another type are double-quoted; multi-line ones literal.
  let style: Style;
  if (/[\n]/.test(text)) style = 'literal';
  else if (resolvesToString(text)) style = 'plain';
  else style = 'double';
  const a = analyse(text);
  if (style === 'plain') {
    if (!a.blockPlainAllowed) style = 'single';
    if (text.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

interface Analysis {
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

function analyse(text: string): Analysis {
  if (text.length === 0) return { blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const chars = [...text];
  let blockIndicators = text.startsWith('---') || text.startsWith('...');
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || isBlank(next);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      else if ((c === '?' || c === ':') && followedByWhitespace) blockIndicators = true;
      else if (c === '-' && followedByWhitespace) blockIndicators = true;
    } else if (c === ':' && followedByWhitespace) blockIndicators = true;
    else if (c === '#' && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c.codePointAt(0) as number)) specialCharacters = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c);
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

function isBlank(c: string): boolean {
  return c === ' ' || c === '\t' || isBreak(c);
}

function isBreak(c: string): boolean {
  return c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
}

function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

function escapeDouble(cp: number): string {
  const named: Record<number, string> = {
    0x00: '0',
    0x07: 'a',
    0x08: 'b',
    0x09: 't',
    0x0a: 'n',
    0x0b: 'v',
    0x0c: 'f',
    0x0d: 'r',
    0x1b: 'e',
    0x22: '"',
    0x5c: '\\',
    0x85: 'N',
    0xa0: '_',
    0x2028: 'L',
    0x2029: 'P',
  };
  const n = named[cp];
  if (n !== undefined) return '\\' + n;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (cp <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

/** Whether yaml.v2 would read the text back, unquoted, as a string (its resolve table). */
export function resolvesToString(text: string): boolean {
  if (text === '') return false;
  const c = text[0] as string;
  if (!'+-.0123456789yYnNtTfFoO~'.includes(c) && !(c === '<' && text === '<<')) return true;
  const special = [
    '~',
    'null',
    'Null',
    'NULL',
    'y',
    'Y',
    'yes',
    'Yes',
    'YES',
    'n',
    'N',
    'no',
    'No',
    'NO',
    'true',
    'True',
    'TRUE',
    'false',
    'False',
    'FALSE',
    'on',
    'On',
    'ON',
    'off',
    'Off',
    'OFF',
    '.nan',
    '.NaN',
    '.NAN',
    '.inf',
    '.Inf',
    '.INF',
    '+.inf',
    '+.Inf',
    '+.INF',
    '-.inf',
    '-.Inf',
    '-.INF',
    '<<',
  ];
  if (special.includes(text)) return false;
  if (!'+-.0123456789'.includes(c)) return true;
  // Ints (with underscores, 0b, 0x, octal), floats, base-60 floats and timestamps resolve to other types.
  const plain = text.replaceAll('_', '');
  if (/^[-+]?(0b[01]+|0x[0-9a-fA-F]+|0o?[0-7]+|\d+)$/.test(plain)) return false;
  if (/^[-+]?(0b[01]+|0x[0-9a-fA-F]+)$/.test(text)) return false;
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) return false;
  if (/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(text)) return false;
  if (isTimestamp(text)) return false;
  return true;
}

function isTimestamp(text: string): boolean {
  // yaml.v2's allowed timestamp formats: RFC3339 with or without fraction, "2006-1-2 15:4:5.999999999", "2006-1-2".
  return (
    /^\d{4}-\d\d?-\d\d?$/.test(text) ||
    /^\d{4}-\d\d?-\d\d?([Tt]|\s+)\d\d?:\d\d:\d\d(\.\d+)?(\s*(Z|[-+]\d\d?(:\d\d)?))?$/.test(text)
  );
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64) for the numbers JSON carries; integers as integers. */
export function goFloatText(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 6) {
    const [mantissa, e] = n.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[-+]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(n);
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/** yaml.v2's key order (sorter.go): non-letters before letters, runs of digits compared by value. */
export function yamlKeyLess(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const ac = ar[i] as string;
    const bc = br[i] as string;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return ac < bc ? -1 : 1;
    if (al || bl) return bl ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (ac === '0' || bc === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] as string); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai] as string); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi] as string); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ac < bc ? -1 : 1;
  }
  return ar.length - br.length;
}

function isLetter(c: string): boolean {
  return /\p{L}/u.test(c);
}

function isDigit(c: string): boolean {
  return /\p{Nd}/u.test(c);
}
