/**
 * Validation of custom resource data against its OpenAPI v3 schema, as the
 * real server's validator (kube-openapi) does it and in its words: types
 * (int-or-string, nullable), formats, enum, pattern (RE2), bounds,
 * multipleOf, lengths, item and property counts, uniqueItems, required,
 * and allOf/anyOf/oneOf/not. Errors become field errors the way the real
 * server converts them (`ValidateCustomResource`): paths joined with dots
 * (list items as `.0`), Required / NotSupported / TooLong / TooMany where
 * it uses those, and "Invalid value: ...: <path> in body ..." otherwise.
 */

import { fieldError, type FieldError } from '../../machinery/field-errors';
import { goQuote } from '../../machinery/go-format';
import { deepEqual } from '../../machinery/json';
import type { SchemaNode } from '../../machinery/schema';
import { isKnownFormat, matchesFormat } from './formats';
import { matchesPattern } from './patterns';
import { NIL_PATH } from './paths';

type Code = 'type' | 'required' | 'enum' | 'tooLong' | 'tooMany' | 'invalid' | 'composite';

interface ValueError {
  code: Code;
  /** Path inside the validated value (`spec.ports.0.port`), '' at its root. */
  name: string;
  value?: unknown;
  message: string;
  values?: unknown[];
  limit?: number;
}

const IN = 'body';

/** Go's `%v` of a float64 (`1`, `0.5`, `1e+06`), as bounds appear in the validator's messages. */
export function goG(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return '0';
  // Shortest digits, switching to exponent form outside [1e-4, 1e6) as strconv's 'g' does.
  const [mant, e] = n.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function join(name: string, key: string): string {
  return name === '' ? key : `${name}.${key}`;
}

function typeError(name: string, typeName: string, actual: string): ValueError {
  return {
    code: 'type',
    name,
    value: actual,
    message: `${name} in ${IN} must be of type ${typeName}: ${goQuote(actual)}`,
  };
}

function typesOf(node: SchemaNode): string[] {
  if (node.intOrString === true) return ['integer', 'string'];
  return node.type === undefined ? [] : [node.type];
}

function walk(node: SchemaNode, data: unknown, name: string, out: ValueError[]): void {
  if (data === undefined) return;
  const types = typesOf(node);
  if (data === null) {
    if (node.nullable !== true && types.length > 0) out.push(typeError(name, types.join(','), 'null'));
    return;
  }
  const actual = jsonType(data);
  if (types.length > 0 && !types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
    out.push(typeError(name, types.join(','), actual));
    return;
  }
  combinators(node, data, name, out);
  if (typeof data === 'string') strings(node, data, name, out);
  if (typeof data === 'number') numbers(node, data, name, out);
  if (Array.isArray(data)) arrays(node, data, name, out);
  if (node.enum !== undefined && !node.enum.some((e) => deepEqual(e, data)))
    out.push({
      code: 'enum',
      name,
      value: data,
      values: node.enum,
      message: `${name} in ${IN} should be one of ${JSON.stringify(node.enum)}`,
    });
  if (actual === 'object') objects(node, data as Record<string, unknown>, name, out);
}

function combinators(node: SchemaNode, data: unknown, name: string, out: ValueError[]): void {
  const attempt = (s: SchemaNode): ValueError[] => {
    const errs: ValueError[] = [];
    walk(s, data, name, errs);
    return errs;
  };
  if (node.allOf !== undefined && node.allOf.length > 0) {
    let valid = 0;
    for (const s of node.allOf) {
      const errs = attempt(s);
      if (errs.length === 0) valid++;
      out.push(...errs);
    }
    if (valid !== node.allOf.length)
      out.push({
        code: 'composite',
        name,
        message: `${goQuote(name)} must validate all the schemas (allOf)${valid === 0 ? '. Found none valid' : ''}`,
      });
  }
  if (node.anyOf !== undefined && node.anyOf.length > 0) {
    const results = node.anyOf.map(attempt);
    if (!results.some((r) => r.length === 0)) {
      out.push({
        code: 'composite',
        name,
        message: `${goQuote(name)} must validate at least one schema (anyOf)`,
      });
      out.push(...fewest(results));
    }
  }
  if (node.oneOf !== undefined && node.oneOf.length > 0) {
    const results = node.oneOf.map(attempt);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      out.push({
        code: 'composite',
        name,
        message: `${goQuote(name)} must validate one and only one schema (oneOf). ${valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`}`,
      });
      if (valid === 0) out.push(...fewest(results));
    }
  }
  if (node.not !== undefined && attempt(node.not).length === 0)
    out.push({ code: 'composite', name, message: `${goQuote(name)} must not validate the schema (not)` });
}

/** The failures of the alternative that came closest, as the real validator reports them. */
function fewest(results: ValueError[][]): ValueError[] {
  let best: ValueError[] | undefined;
  for (const r of results) if (best === undefined || r.length < best.length) best = r;
  return best ?? [];
}

function strings(node: SchemaNode, data: string, name: string, out: ValueError[]): void {
  const length = [...data].length;
  if (node.maxLength !== undefined && length > node.maxLength)
    out.push({
      code: 'tooLong',
      name,
      value: data,
      limit: node.maxLength,
      message: `${name} in ${IN} should be at most ${node.maxLength} chars long`,
    });
  if (node.minLength !== undefined && length < node.minLength)
    out.push({
      code: 'invalid',
      name,
      value: data,
      message: `${name} in ${IN} should be at least ${node.minLength} chars long`,
    });
  if (node.pattern !== undefined && !matchesPattern(node.pattern, data))
    out.push({
      code: 'invalid',
      name,
      value: data,
      message: `${name} in ${IN} should match '${node.pattern}'`,
    });
  if (node.format !== undefined && isKnownFormat(node.format) && !matchesFormat(node.format, data))
    out.push({
      code: 'type',
      name,
      value: data,
      message: `${name} in ${IN} must be of type ${node.format}: ${goQuote(data)}`,
    });
}

function numbers(node: SchemaNode, data: number, name: string, out: ValueError[]): void {
  if (node.multipleOf !== undefined && node.multipleOf > 0) {
    const q = data / node.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9 * Math.max(1, Math.abs(q)))
      out.push({
        code: 'invalid',
        name,
        value: data,
        message: `${name} in ${IN} should be a multiple of ${goG(node.multipleOf)}`,
      });
  }
  if (node.maximum !== undefined) {
    const exclusive = node.exclusiveMaximum === true;
    if (exclusive ? data >= node.maximum : data > node.maximum)
      out.push({
        code: 'invalid',
        name,
        value: data,
        message: `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${goG(node.maximum)}`,
      });
  }
  if (node.minimum !== undefined) {
    const exclusive = node.exclusiveMinimum === true;
    if (exclusive ? data <= node.minimum : data < node.minimum)
      out.push({
        code: 'invalid',
        name,
        value: data,
        message: `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${goG(node.minimum)}`,
      });
  }
}

function arrays(node: SchemaNode, data: unknown[], name: string, out: ValueError[]): void {
  if (node.minItems !== undefined && data.length < node.minItems)
    out.push({
      code: 'invalid',
      name,
      value: data.length,
      message: `${name} in ${IN} should have at least ${node.minItems} items`,
    });
  if (node.maxItems !== undefined && data.length > node.maxItems)
    out.push({
      code: 'tooMany',
      name,
      value: data.length,
      limit: node.maxItems,
      message: `${name} in ${IN} should have at most ${node.maxItems} items`,
    });
  if (node.uniqueItems === true && data.some((v, i) => data.findIndex((w) => deepEqual(v, w)) !== i))
    out.push({ code: 'invalid', name, message: `${name} in ${IN} shouldn't contain duplicates` });
  if (node.items !== undefined) {
    const items = node.items;
    data.forEach((item, i) => walk(items, item, `${name}.${i}`, out));
  }
}

function objects(node: SchemaNode, data: Record<string, unknown>, name: string, out: ValueError[]): void {
  const size = Object.keys(data).length;
  if (node.maxProperties !== undefined && size > node.maxProperties)
    out.push({
      code: 'tooMany',
      name,
      value: size,
      limit: node.maxProperties,
      message: `${name} in ${IN} should have at most ${node.maxProperties} properties`,
    });
  if (node.minProperties !== undefined && size < node.minProperties)
    out.push({
      code: 'invalid',
      name,
      value: size,
      message: `${name} in ${IN} should have at least ${node.minProperties} properties`,
    });
  for (const req of node.required ?? [])
    if (data[req] === undefined)
      out.push({
        code: 'required',
        name: join(name, req),
        message: `${join(name, req)} in ${IN} is required`,
      });
  const props = node.properties ?? {};
  for (const [key, child] of Object.entries(props)) walk(child, data[key], join(name, key), out);
  const extra = node.additionalProperties;
  if (typeof extra === 'object')
    for (const [key, value] of Object.entries(data))
      if (!(key in props)) walk(extra, value, join(name, key), out);
}

/**
 * Validates `data` against `schema`; errors are placed under `prefix` (the
 * field path of the value: '' for a whole custom resource, a CRD path for
 * a schema default).
 */
export function validateValue(schema: SchemaNode, data: unknown, prefix = ''): FieldError[] {
  const errors: ValueError[] = [];
  walk(schema, data, '', errors);
  return errors.map((e) => toFieldError(e, prefix));
}

function toFieldError(e: ValueError, prefix: string): FieldError {
  const path = e.name === '' || e.name === '.' ? prefix : prefix === '' ? e.name : `${prefix}.${e.name}`;
  const field = path === '' ? NIL_PATH : path;
  switch (e.code) {
    case 'required':
      return fieldError.required(field, '');
    case 'enum':
      return fieldError.notSupported(
        field,
        e.value,
        (e.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
      );
    case 'tooLong':
      return {
        type: 'FieldValueTooLong',
        field,
        badValue: e.value,
        detail: `may not be longer than ${e.limit ?? -1}`,
      };
    case 'tooMany':
      return fieldError.tooMany(field, typeof e.value === 'number' ? e.value : -1, e.limit ?? -1);
    case 'type':
      return fieldError.typeInvalid(field, e.value ?? '', e.message);
    case 'composite':
      return fieldError.invalid(prefix === '' ? NIL_PATH : prefix, '', e.message);
    default:
      return fieldError.invalid(field, e.value ?? '', e.message);
  }
}
