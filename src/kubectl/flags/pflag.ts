/**
 * Command-line flags as spf13/pflag parses them for kubectl: `--name=value`,
 * `--name value`, bare booleans (`--all`, `--all=false`), flags with a value
 * used when none is given (`--dry-run` means `--dry-run=unchanged`),
 * shorthands alone, stacked or glued to their value (`-n ns`, `-nns`,
 * `-n=ns`, `-it`), `--` ending the flags, and flags interspersed with
 * arguments. Names are normalised as kubectl does (`--dry_run` is
 * `--dry-run`). Errors carry pflag's own words, which kubectl prints.
 */

export type FlagType =
  'bool' | 'string' | 'int' | 'int64' | 'duration' | 'stringArray' | 'stringSlice' | 'stringToString';

export interface FlagSpec {
  name: string;
  type: FlagType;
  shorthand?: string;
  /** The value before parsing, as its text ('' for empty lists). */
  default?: string;
  /** Used when the flag is given without a value; booleans have `true`. */
  noOptDefVal?: string;
  usage?: string;
  hidden?: boolean;
}

export class FlagError extends Error {}

export type FlagValue = string | boolean | number | string[] | Record<string, string>;

/** A set of flags and what parsing gave them; `changed` tells set flags from defaults. */
export class FlagSet {
  private readonly specs = new Map<string, FlagSpec>();
  private readonly shorthands = new Map<string, FlagSpec>();
  private readonly values = new Map<string, FlagValue>();
  readonly changed = new Set<string>();
  /** Arguments after `--`, as cobra's ArgsLenAtDash reports. */
  argsLenAtDash = -1;

  constructor(specs: FlagSpec[] = []) {
    for (const spec of specs) this.add(spec);
  }

  /** Global flags a command's own flag of the same name hides (`create rolebinding --user`). */
  readonly shadowed = new Set<string>();

  add(spec: FlagSpec): void {
    if (this.specs.has(spec.name)) this.shadowed.add(spec.name);
    this.specs.set(spec.name, spec);
    if (spec.shorthand !== undefined) this.shorthands.set(spec.shorthand, spec);
    this.values.set(spec.name, initial(spec));
  }

  has(name: string): boolean {
    return this.specs.has(name);
  }

  spec(name: string): FlagSpec | undefined {
    return this.specs.get(normaliseName(name));
  }

  all(): FlagSpec[] {
    return [...this.specs.values()];
  }

  string(name: string): string {
    const v = this.get(name);
    return typeof v === 'string' ? v : String(v);
  }

  bool(name: string): boolean {
    return this.get(name) === true;
  }

  int(name: string): number {
    const v = this.get(name);
    return typeof v === 'number' ? v : Number(v);
  }

  strings(name: string): string[] {
    const v = this.get(name);
    return Array.isArray(v) ? v : [];
  }

  map(name: string): Record<string, string> {
    const v = this.get(name);
    return typeof v === 'object' && !Array.isArray(v) ? v : {};
  }

  get(name: string): FlagValue {
    const v = this.values.get(name);
    if (v === undefined) throw new Error(`flag accessed but not defined: ${name}`);
    return v;
  }

  /** Sets a flag by name from its text, as the command line would. */
  set(name: string, text: string): void {
    const spec = this.specs.get(name);
    if (spec === undefined) throw new FlagError(`no such flag -${name}`);
    this.assign(spec, text);
  }

  /** Parses `args`, returning the positional arguments (flags may be interspersed). */
  parse(args: string[]): string[] {
    const positional: string[] = [];
    let rest = [...args];
    while (rest.length > 0) {
      const s = rest.shift() as string;
      if (s.length < 2 || s[0] !== '-') {
        positional.push(s);
        continue;
      }
      if (s[1] === '-') {
        if (s.length === 2) {
          this.argsLenAtDash = positional.length;
          positional.push(...rest);
          break;
        }
        rest = this.parseLong(s, rest);
      } else {
        rest = this.parseShort(s, rest);
      }
    }
    return positional;
  }

  private parseLong(s: string, rest: string[]): string[] {
    const body = s.slice(2);
    if (body.length === 0 || body[0] === '-' || body[0] === '=') throw new FlagError(`bad flag syntax: ${s}`);
    const eq = body.indexOf('=');
    const name = normaliseName(eq < 0 ? body : body.slice(0, eq));
    const spec = this.specs.get(name);
    if (spec === undefined) {
      if (name === 'help') throw new HelpRequested();
      throw new FlagError(`unknown flag: --${name}`);
    }
    if (eq >= 0) this.assign(spec, body.slice(eq + 1));
    else if (spec.noOptDefVal !== undefined) this.assign(spec, spec.noOptDefVal);
    else if (rest.length > 0) this.assign(spec, rest.shift() as string);
    else throw new FlagError(`flag needs an argument: ${s}`);
    return rest;
  }

  private parseShort(s: string, rest: string[]): string[] {
    let shorts = s.slice(1);
    while (shorts.length > 0) {
      const c = shorts[0] as string;
      const spec = this.shorthands.get(c);
      if (spec === undefined) {
        if (c === 'h') throw new HelpRequested();
        throw new FlagError(`unknown shorthand flag: '${c}' in -${shorts}`);
      }
      let value: string;
      let next = '';
      if (shorts.length > 2 && shorts[1] === '=') value = shorts.slice(2);
      else if (spec.noOptDefVal !== undefined) {
        value = spec.noOptDefVal;
        next = shorts.slice(1);
      } else if (shorts.length > 1) value = shorts.slice(1);
      else if (rest.length > 0) value = rest.shift() as string;
      else throw new FlagError(`flag needs an argument: '${c}' in -${shorts}`);
      this.assign(spec, value);
      shorts = next;
    }
    return rest;
  }

  private assign(spec: FlagSpec, text: string): void {
    let value: FlagValue;
    try {
      value = convert(spec, text, this.changed.has(spec.name) ? this.values.get(spec.name) : undefined);
    } catch (error) {
      const label = spec.shorthand !== undefined ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
      throw new FlagError(
        `invalid argument "${text}" for "${label}" flag: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.values.set(spec.name, value);
    this.changed.add(spec.name);
  }
}

/** `--help` or `-h` was given. */
export class HelpRequested extends Error {
  constructor() {
    super('help requested');
  }
}

/** kubectl's WordSepNormalizeFunc: underscores are dashes. */
export function normaliseName(name: string): string {
  return name.includes('_') ? name.replaceAll('_', '-') : name;
}

function initial(spec: FlagSpec): FlagValue {
  const d = spec.default;
  switch (spec.type) {
    case 'bool':
      return d === 'true';
    case 'int':
    case 'int64':
      return d === undefined || d === '' ? 0 : Number(d);
    case 'stringArray':
    case 'stringSlice':
      return d === undefined || d === '' || d === '[]' ? [] : d.split(',');
    case 'stringToString':
      return {};
    default:
      return d ?? '';
  }
}

function convert(spec: FlagSpec, text: string, previous: FlagValue | undefined): FlagValue {
  switch (spec.type) {
    case 'bool':
      return parseBool(text);
    case 'int':
    case 'int64':
      return parseGoInt(text, spec.type === 'int' ? 64 : 64);
    case 'duration':
      parseGoDurationText(text);
      return text;
    case 'stringArray':
      return [...(Array.isArray(previous) ? previous : []), text];
    case 'stringSlice': {
      const items = text === '' ? [] : parseCsvLine(text);
      return [...(Array.isArray(previous) ? previous : []), ...items];
    }
    case 'stringToString': {
      const out: Record<string, string> =
        previous !== undefined && typeof previous === 'object' && !Array.isArray(previous)
          ? { ...previous }
          : {};
      for (const pair of text === '' ? [] : parseCsvLine(text)) {
        const eq = pair.indexOf('=');
        if (eq < 0) throw new Error(`${pair} must be formatted as key=value`);
        out[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      return out;
    }
    default:
      return text;
  }
}

/** Go's strconv.ParseBool. */
export function parseBool(text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new Error(`strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`);
}

/** Go's strconv.ParseInt(text, 0, bits): decimal, 0x, 0o, 0b, a leading 0 for octal, underscores between digits. */
export function parseGoInt(text: string, bits: number): number {
  const fail = (why: string): never => {
    throw new Error(`strconv.ParseInt: parsing ${goQuote(text)}: ${why}`);
  };
  let s = text;
  let sign = 1;
  if (s.startsWith('+') || s.startsWith('-')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  let base = 10;
  if (/^0[xX]/.test(s)) {
    base = 16;
    s = s.slice(2);
  } else if (/^0[oO]/.test(s)) {
    base = 8;
    s = s.slice(2);
  } else if (/^0[bB]/.test(s)) {
    base = 2;
    s = s.slice(2);
  } else if (/^0\d/.test(s)) {
    base = 8;
    s = s.slice(1);
  }
  const digits = s.replaceAll('_', '');
  const pattern = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^\d+$/, 16: /^[0-9a-fA-F]+$/ }[base] as RegExp;
  if (!pattern.test(digits) || (s.includes('_') && base === 10 && !text.match(/^[+-]?0/)))
    fail('invalid syntax');
  const value = sign * parseInt(digits, base);
  const limit = 2 ** (bits - 1);
  if (value >= limit || value < -limit) fail('value out of range');
  return value;
}

/** Accepts a Go duration text (`30s`, `1m30s`, `0`), throwing Go's message otherwise. */
export function parseGoDurationText(text: string): number {
  if (text === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '') throw new Error(`time: invalid duration ${goQuote(text)}`);
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
  let ms = 0;
  let index = 0;
  re.lastIndex = 0;
  while (index < s.length) {
    re.lastIndex = index;
    const m = re.exec(s);
    if (m === null) {
      if (/^\d+(\.\d*)?$/.test(s.slice(index)))
        throw new Error(`time: missing unit in duration ${goQuote(text)}`);
      throw new Error(`time: invalid duration ${goQuote(text)}`);
    }
    ms += Number(m[1]) * (unit[m[2] as string] as number);
    index = re.lastIndex;
  }
  return sign * ms;
}

/** Go's %q for the ASCII texts flags carry. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** One CSV record as encoding/csv reads it (pflag's string slices): commas separate, quotes group. */
export function parseCsvLine(text: string): string[] {
  const out: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  let atStart = true;
  while (i < text.length) {
    const c = text[i] as string;
    if (atStart && c === '"') {
      quoted = true;
      atStart = false;
      i++;
      continue;
    }
    atStart = false;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === ',') {
      out.push(field);
      field = '';
      atStart = true;
      i++;
      continue;
    }
    field += c;
    i++;
  }
  out.push(field);
  return out;
}
