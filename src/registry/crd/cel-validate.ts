/**
 * Runs a custom resource's `x-orch-validations` rules on a write, as the
 * real server's CEL validator does: every schema node with rules is
 * evaluated on its value with `self` and, on update, `oldSelf` (the old
 * value correlated by property, map key, or list-map key — transition rules
 * are skipped where there is none); one runtime cost budget is shared by
 * the whole object, and once it runs out (or one evaluation exceeds the
 * per-call limit) no further rule runs. Failures are placed at the node's
 * path (or the rule's `fieldPath`) with the node's schema type as the value,
 * and worded by the rule's `reason`.
 */

import type { JsonValue } from '../../api/meta';
import {
  RUNTIME_CEL_COST_BUDGET,
  validateRules,
  type CompiledRule,
  type RuleViolation,
} from '../../cel/index';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import { deepEqual, isPlainObject } from '../../machinery/json';
import type { SchemaNode } from '../../machinery/schema';
import { child, index, key, shown } from './paths';

export type CompiledRules = ReadonlyMap<SchemaNode, readonly CompiledRule[]>;

interface WalkState {
  rules: CompiledRules;
  remaining: number;
  errors: FieldError[];
  stopped: boolean;
}

/** `.spec.replicas`, `['a.b']`, `[0]` relative to a node, as the real server normalises `fieldPath`. */
export function parseFieldPath(text: string): (string | number)[] | undefined {
  const out: (string | number)[] = [];
  let rest = text.trim();
  while (rest !== '') {
    let m = /^\.([A-Za-z_$][A-Za-z0-9_$-]*)/.exec(rest);
    if (m !== null) {
      out.push(m[1] ?? '');
      rest = rest.slice(m[0].length);
      continue;
    }
    m = /^\[\s*'((?:[^'\\]|\\.)*)'\s*\]/.exec(rest) ?? /^\[\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(rest);
    if (m !== null) {
      out.push((m[1] ?? '').replace(/\\(.)/g, '$1'));
      rest = rest.slice(m[0].length);
      continue;
    }
    m = /^\[(\d+)\]/.exec(rest);
    if (m !== null) {
      out.push(Number(m[1]));
      rest = rest.slice(m[0].length);
      continue;
    }
    return undefined;
  }
  return out;
}

/** Whether `fieldPath` names a field the schema declares below `node`. */
export function fieldPathValid(node: SchemaNode, text: string): boolean {
  const segments = parseFieldPath(text);
  if (segments === undefined || segments.length === 0) return false;
  let cur: SchemaNode | undefined = node;
  for (const seg of segments) {
    if (cur === undefined) return false;
    if (typeof seg === 'number') cur = cur.type === 'array' ? cur.items : undefined;
    else if (cur.properties?.[seg] !== undefined) cur = cur.properties[seg];
    else if (typeof cur.additionalProperties === 'object') cur = cur.additionalProperties;
    else return false;
  }
  return cur !== undefined;
}

function appendFieldPath(path: string, text: string): string {
  let out = path;
  for (const seg of parseFieldPath(text) ?? [])
    out = typeof seg === 'number' ? index(out, seg) : child(out, seg);
  return out;
}

function toFieldError(node: SchemaNode, path: string, v: RuleViolation): FieldError {
  const at = shown(v.fieldPath !== undefined ? appendFieldPath(path, v.fieldPath) : path);
  const type = node.type ?? '';
  switch (v.reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(at, v.message);
    case 'FieldValueRequired':
      return fieldError.required(at, v.message);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(at, type);
    default:
      return fieldError.invalid(at, type, v.message);
  }
}

function listMapKey(item: unknown, keys: readonly string[]): unknown[] | undefined {
  if (!isPlainObject(item)) return undefined;
  return keys.map((k) => item[k]);
}

function walk(node: SchemaNode, value: unknown, old: unknown, path: string, st: WalkState): void {
  if (st.stopped || value === undefined || value === null) return;
  const rules = st.rules.get(node);
  if (rules !== undefined && rules.length > 0) {
    let result;
    try {
      result = validateRules(
        rules,
        {
          self: value as JsonValue,
          ...(old !== undefined && old !== null ? { oldSelf: old as JsonValue } : {}),
        },
        st.remaining,
      );
    } catch (e) {
      st.errors.push(
        fieldError.invalid(shown(path), node.type ?? '', e instanceof Error ? e.message : String(e)),
      );
      return;
    }
    for (const v of result.violations) st.errors.push(toFieldError(node, path, v));
    if (result.remainingBudget < 0) {
      st.stopped = true;
      return;
    }
    st.remaining = result.remainingBudget;
  }
  if (Array.isArray(value)) {
    const items = node.items;
    if (items === undefined) return;
    const keys = node.listType === 'map' ? (node.listMapKeys ?? []) : undefined;
    const oldList = Array.isArray(old) ? old : [];
    value.forEach((item, i) => {
      let oldItem: unknown;
      if (keys !== undefined) {
        const k = listMapKey(item, keys);
        oldItem = k === undefined ? undefined : oldList.find((o) => deepEqual(listMapKey(o, keys), k));
      }
      walk(items, item, oldItem, index(path, i), st);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  const oldObj = isPlainObject(old) && node.mapType !== 'atomic' ? old : undefined;
  for (const [k, prop] of Object.entries(node.properties ?? {}))
    if (k in value) walk(prop, value[k], oldObj?.[k], child(path, k), st);
  const extra = node.additionalProperties;
  if (typeof extra === 'object')
    for (const [k, v] of Object.entries(value))
      if (node.properties?.[k] === undefined) walk(extra, v, oldObj?.[k], key(path, k), st);
}

/** Every rule failure of `obj` (and `old` on update), within the per-object budget. */
export function validateCelRules(
  rules: CompiledRules,
  schema: SchemaNode,
  obj: unknown,
  old?: unknown,
  budget = RUNTIME_CEL_COST_BUDGET,
): FieldError[] {
  if (rules.size === 0) return [];
  const st: WalkState = { rules, remaining: budget, errors: [], stopped: false };
  walk(schema, obj, old, '', st);
  return st.errors;
}
