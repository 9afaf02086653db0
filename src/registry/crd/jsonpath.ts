/**
 * The JSONPath dialect of printer columns (the real server's
 * `k8s.io/client-go/util/jsonpath`, as `kubectl get -o jsonpath` speaks it):
 * `.field`, `['field']`, `[n]` (negative from the end), `[start:end]`,
 * `[*]` and `.*`, `..field` (recursive descent), unions `[a,b]` and filters
 * `[?(@.type == "Ready")]` with `==`, `!=`, `<`, `<=`, `>`, `>=` or bare
 * existence. Missing keys give no result (columns render them empty).
 */

type Step =
  | { kind: 'field'; names: string[] }
  | { kind: 'recursive'; name: string }
  | { kind: 'wildcard' }
  | { kind: 'index'; indices: number[] }
  | { kind: 'slice'; start?: number; end?: number }
  | { kind: 'filter'; path: Step[]; op?: string; value?: unknown };

export class JsonPathError extends Error {}

function parseLiteral(text: string): unknown {
  const t = text.trim();
  if (/^'.*'$/.test(t) || /^".*"$/.test(t)) return t.slice(1, -1);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null') return null;
  if (t !== '' && !Number.isNaN(Number(t))) return Number(t);
  throw new JsonPathError(`unrecognized literal ${t}`);
}

function splitUnion(inner: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote = '';
  for (const ch of inner) {
    if (quote !== '') {
      cur += ch;
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      cur += ch;
    } else if (ch === ',') {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  parts.push(cur.trim());
  return parts;
}

function parseBracket(inner: string): Step {
  const t = inner.trim();
  if (t === '*') return { kind: 'wildcard' };
  if (t.startsWith('?')) {
    const m = /^\?\((.*)\)$/s.exec(t);
    if (m === null) throw new JsonPathError(`invalid filter ${t}`);
    const expr = (m[1] ?? '').trim();
    const op = /\s*(==|!=|<=|>=|<|>)\s*/.exec(expr);
    const left = op === null ? expr : expr.slice(0, op.index);
    if (!left.startsWith('@')) throw new JsonPathError(`invalid filter ${t}`);
    const path = parseSteps(left.slice(1));
    if (op === null) return { kind: 'filter', path };
    return {
      kind: 'filter',
      path,
      op: op[1] ?? '==',
      value: parseLiteral(expr.slice(op.index + op[0].length)),
    };
  }
  if (/^-?\d*:-?\d*(:-?\d*)?$/.test(t)) {
    const [a, b] = t.split(':');
    return {
      kind: 'slice',
      ...(a !== undefined && a !== '' ? { start: Number(a) } : {}),
      ...(b !== undefined && b !== '' ? { end: Number(b) } : {}),
    };
  }
  const parts = splitUnion(t);
  if (parts.every((p) => /^-?\d+$/.test(p))) return { kind: 'index', indices: parts.map(Number) };
  if (parts.every((p) => /^'.*'$/.test(p) || /^".*"$/.test(p)))
    return { kind: 'field', names: parts.map((p) => p.slice(1, -1)) };
  throw new JsonPathError(`invalid array index ${t}`);
}

function parseSteps(text: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '.') {
      if (text[i + 1] === '.') {
        const m = /^[^.[\]\s]+/.exec(text.slice(i + 2));
        if (m === null) throw new JsonPathError('invalid recursive descent');
        steps.push({ kind: 'recursive', name: m[0] });
        i += 2 + m[0].length;
        continue;
      }
      const m = /^[^.[\]\s]*/.exec(text.slice(i + 1));
      const name = m?.[0] ?? '';
      i += 1 + name.length;
      if (name === '') continue;
      steps.push(name === '*' ? { kind: 'wildcard' } : { kind: 'field', names: [name] });
    } else if (ch === '[') {
      let depth = 0;
      let j = i;
      let quote = '';
      for (; j < text.length; j++) {
        const c = text[j];
        if (quote !== '') {
          if (c === quote) quote = '';
          continue;
        }
        if (c === "'" || c === '"') quote = c;
        else if (c === '[' || c === '(') depth++;
        else if (c === ']' || c === ')') {
          depth--;
          if (depth === 0 && c === ']') break;
        }
      }
      if (j >= text.length) throw new JsonPathError('unterminated array');
      steps.push(parseBracket(text.slice(i + 1, j)));
      i = j + 1;
    } else if (ch === ' ') i++;
    else {
      const m = /^[^.[\]\s]+/.exec(text.slice(i));
      steps.push({ kind: 'field', names: [m?.[0] ?? ''] });
      i += m?.[0].length ?? 1;
    }
  }
  return steps;
}

/** Parses a column's `jsonPath` (written without braces, e.g. `.spec.replicas`). */
export function parseJsonPath(path: string): Step[] {
  const t = path.trim();
  const inner = t.startsWith('{') && t.endsWith('}') ? t.slice(1, -1) : t;
  return parseSteps(inner.startsWith('$') ? inner.slice(1) : inner);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compare(a: unknown, op: string, b: unknown): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    default: {
      if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
      const x = a as number | string;
      const y = b as number | string;
      return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
    }
  }
}

function descend(v: unknown, name: string, out: unknown[]): void {
  if (Array.isArray(v)) for (const item of v) descend(item, name, out);
  else if (isObj(v)) {
    if (name in v) out.push(v[name]);
    for (const child of Object.values(v)) descend(child, name, out);
  }
}

function step(values: unknown[], s: Step): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    switch (s.kind) {
      case 'field':
        if (isObj(v)) for (const n of s.names) if (n in v) out.push(v[n]);
        break;
      case 'recursive':
        descend(v, s.name, out);
        break;
      case 'wildcard':
        if (Array.isArray(v)) out.push(...v);
        else if (isObj(v)) out.push(...Object.values(v));
        break;
      case 'index':
        if (Array.isArray(v))
          for (const i of s.indices) {
            const at = i < 0 ? v.length + i : i;
            if (at >= 0 && at < v.length) out.push(v[at]);
          }
        break;
      case 'slice':
        if (Array.isArray(v)) out.push(...v.slice(s.start, s.end));
        break;
      case 'filter':
        if (Array.isArray(v))
          for (const item of v) {
            const found = evaluate(s.path, item);
            if (s.op === undefined ? found.length > 0 : found.some((f) => compare(f, s.op ?? '==', s.value)))
              out.push(item);
          }
        break;
    }
  }
  return out;
}

function evaluate(steps: readonly Step[], root: unknown): unknown[] {
  let values = [root];
  for (const s of steps) values = step(values, s);
  return values;
}

/** The values a parsed path selects from `obj`, in document order. */
export function findResults(steps: readonly Step[], obj: unknown): unknown[] {
  return evaluate(steps, obj);
}

export type JsonPath = Step[];
