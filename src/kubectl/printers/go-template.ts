/**
 * The part of Go's text/template that kubectl users type with
 * `-o go-template`: field chains (`{{.metadata.name}}`), `{{range .items}}
 * … {{end}}`, `{{if …}} … {{else}} … {{end}}`, string literals
 * (`{{"\n"}}`) and `{{index .data "key"}}`. A missing key prints
 * `<no value>`, as kubectl's template printer does with missing keys allowed.
 */

import { goSprint } from './output';

type Token = { text: string } | { action: string };

function tokenize(template: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{{', i);
    if (open < 0) {
      tokens.push({ text: template.slice(i) });
      break;
    }
    if (open > i) tokens.push({ text: template.slice(i, open) });
    const close = template.indexOf('}}', open + 2);
    if (close < 0) throw new Error(`template: output:1: unclosed action`);
    let action = template.slice(open + 2, close);
    if (action.startsWith('-')) action = action.slice(1);
    if (action.endsWith('-')) action = action.slice(0, -1);
    tokens.push({ action: action.trim() });
    i = close + 2;
  }
  return tokens;
}

function evalExpr(expr: string, dot: unknown, root: unknown): unknown {
  const t = expr.trim();
  if (t.startsWith('"')) return JSON.parse(t) as unknown;
  if (t.startsWith('index ')) {
    const parts = t.slice(6).match(/"[^"]*"|\S+/g) ?? [];
    let v = evalExpr(parts[0] ?? '.', dot, root);
    for (const key of parts.slice(1)) {
      const k = evalExpr(key, dot, root);
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[String(k)] : undefined;
    }
    return v;
  }
  if (t === '.') return dot;
  if (t.startsWith('$')) return evalExpr(t.slice(1) || '.', root, root);
  if (t.startsWith('.')) {
    let v: unknown = dot;
    for (const key of t.slice(1).split('.')) {
      if (key === '') continue;
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
    }
    return v;
  }
  return undefined;
}

function truthy(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

export function goTemplate(template: string, data: unknown): string {
  const tokens = tokenize(template);
  let pos = 0;
  const run = (dot: unknown, emit: boolean): string => {
    let out = '';
    while (pos < tokens.length) {
      const token = tokens[pos++] as Token;
      if ('text' in token) {
        if (emit) out += token.text;
        continue;
      }
      const a = token.action;
      if (a === 'end' || a === 'else') {
        pos--;
        return out;
      }
      if (a.startsWith('range ')) {
        const v = evalExpr(a.slice(6), dot, data);
        const items = Array.isArray(v)
          ? v
          : v !== null && typeof v === 'object'
            ? Object.keys(v)
                .sort()
                .map((k) => (v as Record<string, unknown>)[k])
            : [];
        const start = pos;
        if (items.length === 0 || !emit) run(dot, false);
        for (const item of emit ? items : []) {
          pos = start;
          out += run(item, true);
        }
        if ((tokens[pos] as { action?: string })?.action === 'else') {
          pos++;
          const e = run(dot, emit && items.length === 0);
          out += e;
        }
        pos++;
        continue;
      }
      if (a.startsWith('if ')) {
        const cond = emit && truthy(evalExpr(a.slice(3), dot, data));
        out += run(dot, emit && cond);
        if ((tokens[pos] as { action?: string })?.action === 'else') {
          pos++;
          out += run(dot, emit && !cond);
        }
        pos++;
        continue;
      }
      if (!emit) continue;
      const v = evalExpr(a, dot, data);
      out += v === undefined ? '<no value>' : typeof v === 'object' && v !== null ? goSprint(v) : String(v);
    }
    return out;
  };
  return run(data, true);
}
