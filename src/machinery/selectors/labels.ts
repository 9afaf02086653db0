/**
 * Label selectors in their string form (`labelSelector=`): equality-based
 * (`=`, `==`, `!=`), set-based (`in`, `notin`), existence (`key`, `!key`)
 * and the numeric `>`/`<`, parsed with the real server's grammar and error
 * wording, and matched against an object's labels.
 */

import { isLabelValue, isQualifiedName } from '../names';

export type LabelOperator =
  | 'Exists'
  | 'DoesNotExist'
  | 'Equals'
  | 'DoubleEquals'
  | 'NotEquals'
  | 'In'
  | 'NotIn'
  | 'GreaterThan'
  | 'LessThan';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export class SelectorParseError extends Error {}

type TokenKind =
  'ident' | 'comma' | 'open' | 'close' | 'not' | 'eq' | 'deq' | 'neq' | 'in' | 'notin' | 'gt' | 'lt' | 'end';
interface Token {
  kind: TokenKind;
  text: string;
}

const special = new Set(['!', '=', '>', '<', '(', ')', ',', ' ', '\t', '\n']);

function lex(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n') {
      i++;
      continue;
    }
    const two = input.slice(i, i + 2);
    if (two === '==') {
      out.push({ kind: 'deq', text: two });
      i += 2;
      continue;
    }
    if (two === '!=') {
      out.push({ kind: 'neq', text: two });
      i += 2;
      continue;
    }
    const single: Partial<Record<string, TokenKind>> = {
      ',': 'comma',
      '(': 'open',
      ')': 'close',
      '!': 'not',
      '=': 'eq',
      '>': 'gt',
      '<': 'lt',
    };
    const kind = single[c];
    if (kind !== undefined) {
      out.push({ kind, text: c });
      i++;
      continue;
    }
    let j = i;
    while (j < input.length && !special.has(input.charAt(j))) j++;
    const text = input.slice(i, j);
    out.push({ kind: text === 'in' ? 'in' : text === 'notin' ? 'notin' : 'ident', text });
    i = j;
  }
  out.push({ kind: 'end', text: '' });
  return out;
}

function validateKey(key: string): void {
  const errs = isQualifiedName(key);
  if (errs.length > 0)
    throw new SelectorParseError(
      `unable to parse requirement: key: Invalid value: ${JSON.stringify(key)}: ${errs.join('; ')}`,
    );
}

function validateValue(key: string, index: number, value: string): void {
  const errs = isLabelValue(value);
  if (errs.length > 0)
    throw new SelectorParseError(
      `unable to parse requirement: values[${index}][${key}]: Invalid value: ${JSON.stringify(value)}: ${errs.join('; ')}`,
    );
}

/** Parses a selector string; an empty string selects everything. */
export function parseLabelSelector(input: string): LabelRequirement[] {
  const tokens = lex(input);
  let pos = 0;
  const peek = (): Token => tokens[pos] ?? { kind: 'end', text: '' };
  const next = (): Token => tokens[pos++] ?? { kind: 'end', text: '' };
  const reqs: LabelRequirement[] = [];
  if (peek().kind === 'end') return reqs;
  for (;;) {
    let t = next();
    if (t.kind === 'not') {
      const key = next();
      if (key.kind !== 'ident')
        throw new SelectorParseError(`found '${key.text}', expected: identifier after '!'`);
      validateKey(key.text);
      reqs.push({ key: key.text, operator: 'DoesNotExist', values: [] });
    } else if (t.kind === 'ident') {
      const key = t.text;
      validateKey(key);
      t = peek();
      if (t.kind === 'comma' || t.kind === 'end') {
        reqs.push({ key, operator: 'Exists', values: [] });
      } else {
        next();
        const opMap: Partial<Record<TokenKind, LabelOperator>> = {
          eq: 'Equals',
          deq: 'DoubleEquals',
          neq: 'NotEquals',
          in: 'In',
          notin: 'NotIn',
          gt: 'GreaterThan',
          lt: 'LessThan',
        };
        const op = opMap[t.kind];
        if (op === undefined)
          throw new SelectorParseError(`found '${t.text}', expected: in, notin, =, ==, !=, gt, lt`);
        if (op === 'In' || op === 'NotIn') {
          const open = next();
          if (open.kind !== 'open') throw new SelectorParseError(`found '${open.text}', expected: '('`);
          const values: string[] = [];
          for (;;) {
            const v = peek();
            if (v.kind === 'close') {
              next();
              break;
            }
            if (v.kind === 'ident') {
              next();
              values.push(v.text);
              const sep = peek();
              if (sep.kind === 'comma') next();
              else if (sep.kind !== 'close')
                throw new SelectorParseError(`found '${sep.text}', expected: ',' or ')'`);
            } else if (v.kind === 'comma') {
              next();
              values.push('');
            } else throw new SelectorParseError(`found '${v.text}', expected: ',', ')' or identifier`);
          }
          if (values.length === 0)
            throw new SelectorParseError(
              `unable to parse requirement: values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`,
            );
          values.forEach((v, i) => validateValue(key, i, v));
          reqs.push({ key, operator: op, values });
        } else {
          const v = peek();
          let value = '';
          if (v.kind === 'ident') {
            next();
            value = v.text;
          } else if (v.kind !== 'comma' && v.kind !== 'end')
            throw new SelectorParseError(`found '${v.text}', expected: identifier`);
          if (op === 'GreaterThan' || op === 'LessThan') {
            if (!/^-?[0-9]+$/.test(value))
              throw new SelectorParseError(
                `unable to parse requirement: values[0]: Invalid value: ${JSON.stringify(value)}: for 'Gt', 'Lt' operators, the value must be an integer`,
              );
          } else validateValue(key, 0, value);
          reqs.push({ key, operator: op, values: [value] });
        }
      }
    } else {
      throw new SelectorParseError(`found '${t.text}', expected: !, identifier, or 'end of string'`);
    }
    const sep = next();
    if (sep.kind === 'end') break;
    if (sep.kind !== 'comma')
      throw new SelectorParseError(`found '${sep.text}', expected: ',' or 'end of string'`);
  }
  return reqs;
}

export function matchesLabels(
  reqs: readonly LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  for (const r of reqs) {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.operator) {
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      case 'Equals':
      case 'DoubleEquals':
      case 'In':
        if (!has || !r.values.includes(v ?? '')) return false;
        break;
      case 'NotEquals':
      case 'NotIn':
        if (has && r.values.includes(v ?? '')) return false;
        break;
      case 'GreaterThan':
      case 'LessThan': {
        if (!has || !/^-?[0-9]+$/.test(v ?? '')) return false;
        const n = Number(v);
        const bound = Number(r.values[0]);
        if (r.operator === 'GreaterThan' ? !(n > bound) : !(n < bound)) return false;
        break;
      }
    }
  }
  return true;
}
