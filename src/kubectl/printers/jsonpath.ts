/**
 * kubectl's JSONPath template dialect (client-go util/jsonpath): text with
 * `{…}` actions holding fields (`.a.b`, `.a\.b` for a dotted key), array
 * slices and indexes (`[0]`, `[-1]`, `[1:3]`, `[*]`), unions (`[a,b]`),
 * quoted dictionary keys (`['x']`), filters (`[?(@.type=="Ready")]`),
 * recursive descent (`..name`), wildcards (`.*`), string literals
 * (`{"\n"}`) and `{range …}…{end}`. Results of one action print
 * space-separated; maps and lists print as compact JSON; missing keys print
 * nothing (kubectl allows them). Parse errors use the library's words.
 */

import { goJson } from './json';

type Node =
  | { type: 'text'; text: string }
  | { type: 'list'; nodes: Node[] }
  | { type: 'field'; name: string }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'array'; params: Param[] }
  | { type: 'union'; lists: Node[] }
  | { type: 'filter'; left: Node; right: Node; op: string }
  | { type: 'identifier'; name: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean };

interface Param {
  value: number;
  known: boolean;
  derived?: boolean;
}

const eof = '';

class Parser {
  pos = 0;
  start = 0;
  readonly root: Node & { type: 'list' } = { type: 'list', nodes: [] };

  constructor(private readonly input: string) {}

  private next(): string {
    if (this.pos >= this.input.length) {
      this.pos++;
      return eof;
    }
    const c = String.fromCodePoint(this.input.codePointAt(this.pos) as number);
    this.pos += c.length;
    return c;
  }

  private backup(): void {
    this.pos--;
    if (this.pos > 0 && this.pos <= this.input.length) {
      const code = this.input.charCodeAt(this.pos);
      if (code >= 0xdc00 && code <= 0xdfff) this.pos--;
    }
  }

  private consume(): string {
    const text = this.input.slice(this.start, Math.min(this.pos, this.input.length));
    this.start = this.pos;
    return text;
  }

  parse(): void {
    this.parseText(this.root);
  }

  private parseText(cur: Node & { type: 'list' }): void {
    for (;;) {
      if (this.input.startsWith('{', this.pos)) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consume() });
        this.pos += 1;
        this.consume();
        const list: Node & { type: 'list' } = { type: 'list', nodes: [] };
        cur.nodes.push(list);
        return this.parseInsideAction(list);
      }
      if (this.next() === eof) break;
    }
    this.pos = Math.min(this.pos, this.input.length);
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consume() });
  }

  private parseInsideAction(cur: Node & { type: 'list' }): void {
    for (;;) {
      const rest = this.input.slice(this.pos);
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consume();
        return this.parseText(this.root);
      }
      if (rest.startsWith('[?(')) return this.parseFilter(cur);
      if (rest.startsWith('..')) {
        this.pos += 2;
        this.consume();
        cur.nodes.push({ type: 'recursive' });
        if (/[\p{L}\p{Nd}_]/u.test(this.input[this.pos] ?? '')) return this.parseField(cur);
        continue;
      }
      const r = this.next();
      if (r === eof || r === '\n' || r === '\r') throw new Error('unclosed action');
      if (r === ' ' || r === '@' || r === '$') {
        this.consume();
        continue;
      }
      if (r === '[') return this.parseArray(cur);
      if (r === '"' || r === "'") return this.parseQuote(cur, r);
      if (r === '.') return this.parseField(cur);
      if (r === '+' || r === '-' || /\p{Nd}/u.test(r)) {
        this.backup();
        return this.parseNumber(cur);
      }
      if (r === '_' || /[\p{L}\p{Nd}]/u.test(r)) {
        this.backup();
        return this.parseIdentifier(cur);
      }
      throw new Error(`unrecognized character in action: ${goRuneU(r)}`);
    }
  }

  private parseIdentifier(cur: Node & { type: 'list' }): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consume();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
    this.parseInsideAction(cur);
  }

  private parseNumber(cur: Node & { type: 'list' }): void {
    const r = this.next();
    if (r !== '+' && r !== '-') this.backup();
    for (;;) {
      const c = this.next();
      if (c !== '.' && !/\d/.test(c)) {
        this.backup();
        break;
      }
    }
    const value = this.consume();
    if (value.includes('.')) {
      const f = Number(value);
      if (Number.isNaN(f)) throw new Error(`cannot parse number ${value}`);
      cur.nodes.push({ type: 'float', value: f });
    } else {
      const i = Number(value);
      if (!/^[+-]?\d+$/.test(value)) throw new Error(`cannot parse number ${value}`);
      cur.nodes.push({ type: 'int', value: i });
    }
    this.parseInsideAction(cur);
  }

  private parseField(cur: Node & { type: 'list' }): void {
    this.consume();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consume();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
    this.parseInsideAction(cur);
  }

  private parseArray(cur: Node & { type: 'list' }): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new Error('unterminated array');
      if (r === ']') break;
    }
    let text = this.consume();
    text = text.slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      const lists = parts.map((p) => parseAction(`[${p.trim()}]`));
      cur.nodes.push({ type: 'union', lists });
      return this.parseInsideAction(cur);
    }
    const dict = /^'([^']*)'$/.exec(text);
    if (dict !== null) {
      const action = parseAction(`.${dict[1]}`) as Node & { type: 'list' };
      cur.nodes.push(...action.nodes);
      return this.parseInsideAction(cur);
    }
    const m = /^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$/.exec(text);
    if (m === null) throw new Error(`invalid array index ${text}`);
    const raw = [m[1] ?? '', m[2] ?? '', m[3] ?? ''];
    const params: Param[] = [];
    for (let i = 0; i < 3; i++) {
      let v = raw[i] as string;
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params.push({ value: 0, known: false });
        else {
          if (!/^-?\d+$/.test(v)) throw new Error(`array index ${v} is not a number`);
          params.push({ value: Number(v), known: true });
        }
      } else if (i === 1) params.push({ value: (params[0] as Param).value + 1, known: true, derived: true });
      else params.push({ value: 0, known: false });
    }
    cur.nodes.push({ type: 'array', params });
    this.parseInsideAction(cur);
  }

  private parseFilter(cur: Node & { type: 'list' }): void {
    this.pos += 3;
    this.consume();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new Error('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new Error('unclosed array expect ]');
    let text = this.consume();
    text = text.slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/.exec(text);
    if (m === null)
      cur.nodes.push({
        type: 'filter',
        left: parseAction(text),
        right: { type: 'list', nodes: [] },
        op: 'exists',
      });
    else
      cur.nodes.push({
        type: 'filter',
        left: parseAction(m[1] as string),
        right: parseAction(m[3] as string),
        op: m[2] as string,
      });
    this.parseInsideAction(cur);
  }

  private parseQuote(cur: Node & { type: 'list' }, quote: string): void {
    for (;;) {
      const r = this.next();
      if (r === eof || r === '\n') throw new Error('unterminated quoted string');
      if (r === '\\') {
        const n = this.next();
        if (n !== eof && n !== '\n') continue;
        break;
      }
      if (r === quote) break;
    }
    const value = this.consume();
    cur.nodes.push({ type: 'text', text: unquote(value) });
    this.parseInsideAction(cur);
  }
}

function parseAction(text: string): Node {
  const p = new Parser(`{${text}}`);
  p.parse();
  return p.root.nodes[0] as Node;
}

function isTerminator(r: string): boolean {
  return r === eof || ' \t\r\n.,[]$@{}'.includes(r);
}

/** Go's %#U: `U+005C '\'`. */
function goRuneU(r: string): string {
  const cp = r.codePointAt(0) as number;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${r}'`;
}

function unquote(value: string): string {
  const body = value.slice(1, -1);
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    const map: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      '\\': '\\',
      '"': '"',
      "'": "'",
      a: '\x07',
      b: '\b',
      f: '\f',
      v: '\v',
      '0': '\0',
    };
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    const m = map[e];
    if (m === undefined) throw new Error(`unquote string ${value} error invalid syntax`);
    return m;
  });
}

/** A parsed template, ready to run on objects. */
export class JsonPath {
  private readonly root: Node & { type: 'list' };
  private beginRange = 0;
  private inRange = 0;
  private endRange = 0;
  private lastEndNode: Node | undefined;

  constructor(
    readonly template: string,
    private readonly options: { allowMissingKeys?: boolean; outputJson?: boolean } = {},
  ) {
    const p = new Parser(template);
    p.parse();
    this.root = p.root;
  }

  execute(data: unknown): string {
    this.beginRange = this.inRange = this.endRange = 0;
    const results = this.findResults(data, this.root.nodes);
    return results.map((r) => this.printResults(r)).join('');
  }

  /** The values each top-level node yields, for custom columns. */
  results(data: unknown): unknown[][] {
    this.beginRange = this.inRange = this.endRange = 0;
    return this.findResults(data, this.root.nodes);
  }

  /** The values each top-level node yields (kubectl's FindResults). */
  private findResults(data: unknown, nodes: Node[]): unknown[][] {
    const full: unknown[][] = [];
    const cur = [data];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as Node;
      const results = this.walk(cur, node);
      if (this.endRange > 0 && this.endRange <= this.inRange) {
        this.endRange--;
        this.lastEndNode = node;
        break;
      }
      if (this.beginRange > 0) {
        this.beginRange--;
        this.inRange++;
        const rest = nodes.slice(i + 1);
        if (results.length > 0) for (const value of results) full.push(...this.findResults(value, rest));
        else this.findResults(null, rest);
        this.inRange--;
        for (let k = i + 1; k < nodes.length; k++) {
          if (nodes[k] === this.lastEndNode) {
            i = k;
            break;
          }
        }
        continue;
      }
      full.push(results);
    }
    return full;
  }

  private printResults(values: unknown[]): string {
    let results = values;
    if (this.options.outputJson) results = [values];
    return results
      .map((r, i) => {
        let text: string;
        if (this.options.outputJson) text = goJson(r, { indent: '    ' }) + '\n';
        else if (typeof r === 'object' && r !== null) text = goJson(r);
        else text = r === null || r === undefined ? '<nil>' : String(r);
        return i !== results.length - 1 ? text + ' ' : text;
      })
      .join('');
  }

  private walk(input: unknown[], node: Node): unknown[] {
    switch (node.type) {
      case 'list': {
        let cur = input;
        for (const n of node.nodes) cur = this.walk(cur, n);
        return cur;
      }
      case 'text':
        return [node.text];
      case 'field':
        return this.evalField(input, node.name);
      case 'array':
        return this.evalArray(input, node.params);
      case 'union':
        return node.lists.flatMap((l) => this.walk(input, l));
      case 'identifier':
        if (node.name === 'range') {
          this.beginRange++;
          return input;
        }
        if (node.name === 'end') {
          if (this.inRange > 0) {
            this.endRange++;
            return [];
          }
          throw new Error('not in range, nothing to end');
        }
        throw new Error(`unrecognized identifier ${node.name}`);
      case 'int':
      case 'float':
      case 'bool':
        return [node.value];
      case 'wildcard':
        return input.flatMap((v) => children(v));
      case 'recursive':
        return this.evalRecursive(input);
      case 'filter':
        return this.evalFilter(input, node);
    }
  }

  private evalField(input: unknown[], name: string): unknown[] {
    const results: unknown[] = [];
    if (input.length === 0) return results;
    for (const value of input) {
      if (value === null || value === undefined) continue;
      if (name === '') {
        results.push(value);
        continue;
      }
      if (typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, name)) {
        const v = (value as Record<string, unknown>)[name];
        results.push(v);
      }
    }
    if (results.length === 0 && !this.options.allowMissingKeys) throw new Error(`${name} is not found`);
    return results;
  }

  private evalArray(input: unknown[], node: Param[]): unknown[] {
    const result: unknown[] = [];
    for (const value of input) {
      if (value === null || value === undefined) continue;
      if (!Array.isArray(value)) throw new Error(`${goTypeName(value)} is not array or slice`);
      const params = node.map((p) => ({ ...p }));
      const [p0, p1, p2] = params as [Param, Param, Param];
      const len = value.length;
      if (!p0.known) p0.value = 0;
      if (p0.value < 0) p0.value += len;
      if (!p1.known) p1.value = len;
      if (p1.value < 0 || (p1.value === 0 && p1.derived)) p1.value += len;
      if (p1.value !== p0.value) {
        if (p0.value >= len || p0.value < 0)
          throw new Error(`array index out of bounds: index ${p0.value}, length ${len}`);
        if (p1.value > len || p1.value < 0)
          throw new Error(`array index out of bounds: index ${p1.value - 1}, length ${len}`);
        if (p0.value > p1.value)
          throw new Error(`starting index ${p0.value} is greater than ending index ${p1.value}`);
      } else return result;
      const slice = value.slice(p0.value, p1.value);
      let step = 1;
      if (p2.known) {
        if (p2.value <= 0) throw new Error('step must be > 0');
        step = p2.value;
      }
      for (let i = 0; i < slice.length; i += step) result.push(slice[i]);
    }
    return result;
  }

  private evalRecursive(input: unknown[]): unknown[] {
    const result: unknown[] = [];
    for (const value of input) {
      if (value === null || value === undefined || typeof value === 'string') continue;
      const kids = children(value);
      if (kids.length !== 0) {
        result.push(value);
        result.push(...this.evalRecursive(kids));
      }
    }
    return result;
  }

  private evalFilter(input: unknown[], node: Node & { type: 'filter' }): unknown[] {
    const results: unknown[] = [];
    for (const value of input) {
      if (!Array.isArray(value))
        throw new Error(`${goJson(value)} is not array or slice and cannot be filtered`);
      for (const item of value) {
        const lefts = this.walkQuiet([item], node.left);
        if (node.op === 'exists') {
          if (lefts.length > 0) results.push(item);
          continue;
        }
        if (lefts.length === 0) continue;
        if (lefts.length > 1) throw new Error('can only compare one element at a time');
        const rights = this.walkQuiet([item], node.right);
        if (rights.length === 0) continue;
        if (rights.length > 1) throw new Error('can only compare one element at a time');
        if (compare(lefts[0], rights[0], node.op)) results.push(item);
      }
    }
    return results;
  }

  private walkQuiet(input: unknown[], node: Node): unknown[] {
    return this.walk(input, node).filter((v) => v !== undefined);
  }
}

function children(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return Object.keys(record)
      .sort()
      .map((k) => record[k]);
  }
  return [];
}

function compare(left: unknown, right: unknown, op: string): boolean {
  if (typeof left !== typeof right && !(typeof left === 'number' && typeof right === 'number'))
    throw new Error(`incompatible types for comparison`);
  const l = left as string | number;
  const r = right as string | number;
  switch (op) {
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '<':
      return l < r;
    case '>':
      return l > r;
    case '<=':
      return l <= r;
    case '>=':
      return l >= r;
  }
  throw new Error(`unrecognized filter operator ${op}`);
}

function goTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  return 'map[string]interface {}';
}
