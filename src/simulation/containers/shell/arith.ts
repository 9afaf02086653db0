/**
 * Shell arithmetic (`$((i + 1))`, `$((n % 2 == 0))`, `$((i++))`): integer
 * operators with C precedence over shell variables, as `sh` evaluates it.
 * Names read variables (unset or empty is 0); `=`, `+=`, `-=`, `*=`, `/=`,
 * `%=`, `++` and `--` assign back through `vars`.
 */

export class ArithError extends Error {}

export interface ArithVars {
  get(name: string): string | undefined;
  set(name: string, value: string): void;
}

type Tok = { k: 'num'; v: number } | { k: 'name'; v: string } | { k: 'op'; v: string } | { k: 'end' };

const ops = ['**', '<=', '>=', '==', '!=', '&&', '||', '<<', '>>', '++', '--', '+=', '-=', '*=', '/=', '%='];

function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(0x[0-9a-fA-F]+|\d+)/.exec(text.slice(i));
    if (num !== null) {
      const t = num[0];
      out.push({
        k: 'num',
        v: t.startsWith('0x')
          ? parseInt(t, 16)
          : t.length > 1 && t.startsWith('0')
            ? parseInt(t, 8)
            : Number(t),
      });
      i += t.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (name !== null) {
      out.push({ k: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (ops.includes(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if ('+-*/%<>!()=&|^~?:'.includes(c)) {
      out.push({ k: 'op', v: c });
      i++;
      continue;
    }
    throw new ArithError(`arithmetic syntax error`);
  }
  out.push({ k: 'end' });
  return out;
}

const binary: Record<string, [number, (a: number, b: number) => number]> = {
  '||': [1, (a, b) => (a !== 0 || b !== 0 ? 1 : 0)],
  '&&': [2, (a, b) => (a !== 0 && b !== 0 ? 1 : 0)],
  '|': [3, (a, b) => a | b],
  '^': [4, (a, b) => a ^ b],
  '&': [5, (a, b) => a & b],
  '==': [6, (a, b) => (a === b ? 1 : 0)],
  '!=': [6, (a, b) => (a !== b ? 1 : 0)],
  '<': [7, (a, b) => (a < b ? 1 : 0)],
  '>': [7, (a, b) => (a > b ? 1 : 0)],
  '<=': [7, (a, b) => (a <= b ? 1 : 0)],
  '>=': [7, (a, b) => (a >= b ? 1 : 0)],
  '<<': [8, (a, b) => a << b],
  '>>': [8, (a, b) => a >> b],
  '+': [9, (a, b) => a + b],
  '-': [9, (a, b) => a - b],
  '*': [10, (a, b) => a * b],
  '/': [10, (a, b) => divide(a, b)],
  '%': [10, (a, b) => (b === 0 ? divide(a, b) : a % b)],
  '**': [11, (a, b) => a ** b],
};

function divide(a: number, b: number): number {
  if (b === 0) throw new ArithError('divide by zero');
  return Math.trunc(a / b);
}

export function evaluateArithmetic(text: string, vars: ArithVars): number {
  const toks = tokenize(text);
  let pos = 0;
  const peek = (): Tok => toks[pos] ?? { k: 'end' };
  const isOp = (v: string): boolean => {
    const t = peek();
    return t.k === 'op' && t.v === v;
  };
  const read = (name: string): number => {
    const raw = (vars.get(name) ?? '').trim();
    if (raw === '') return 0;
    if (/^-?\d+$/.test(raw)) return Number(raw);
    // A variable holding an expression is evaluated, as the shell does.
    return evaluateArithmetic(raw, vars);
  };

  const primary = (): number => {
    const t = peek();
    if (t.k === 'num') {
      pos++;
      return t.v;
    }
    if (t.k === 'name') {
      pos++;
      const n = peek();
      if (n.k === 'op' && (n.v === '++' || n.v === '--')) {
        pos++;
        const old = read(t.v);
        vars.set(t.v, String(n.v === '++' ? old + 1 : old - 1));
        return old;
      }
      if (n.k === 'op' && ['=', '+=', '-=', '*=', '/=', '%='].includes(n.v)) {
        pos++;
        const rhs = assignment();
        const old = read(t.v);
        const value =
          n.v === '='
            ? rhs
            : n.v === '+='
              ? old + rhs
              : n.v === '-='
                ? old - rhs
                : n.v === '*='
                  ? old * rhs
                  : n.v === '/='
                    ? divide(old, rhs)
                    : old % rhs;
        vars.set(t.v, String(value));
        return value;
      }
      return read(t.v);
    }
    if (t.k === 'op') {
      pos++;
      switch (t.v) {
        case '(': {
          const v = assignment();
          if (!isOp(')')) throw new ArithError('arithmetic syntax error');
          pos++;
          return v;
        }
        case '-':
          return -primary();
        case '+':
          return primary();
        case '!':
          return primary() === 0 ? 1 : 0;
        case '~':
          return ~primary();
        case '++':
        case '--': {
          const n = peek();
          if (n.k !== 'name') throw new ArithError('arithmetic syntax error');
          pos++;
          const value = read(n.v) + (t.v === '++' ? 1 : -1);
          vars.set(n.v, String(value));
          return value;
        }
      }
    }
    throw new ArithError('arithmetic syntax error');
  };

  const climb = (minPrec: number): number => {
    let left = primary();
    for (;;) {
      const t = peek();
      if (t.k !== 'op') break;
      const entry = binary[t.v];
      if (entry === undefined || entry[0] < minPrec) break;
      pos++;
      // `**` is right-associative.
      const right = climb(t.v === '**' ? entry[0] : entry[0] + 1);
      left = entry[1](left, right);
    }
    return left;
  };

  const assignment = (): number => {
    const cond = climb(1);
    if (isOp('?')) {
      pos++;
      const a = assignment();
      if (!isOp(':')) throw new ArithError('arithmetic syntax error');
      pos++;
      const b = assignment();
      return cond !== 0 ? a : b;
    }
    return cond;
  };

  if (peek().k === 'end') return 0;
  const value = assignment();
  if (peek().k !== 'end') throw new ArithError('arithmetic syntax error');
  return value;
}
