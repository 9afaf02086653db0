/**
 * Patch templates of rule backends: JSON-patch operations whose values may
 * hold CEL — any value node that is exactly `{"expr": "<CEL>"}` is
 * replaced by the expression's result, at any depth (`{"value": {"team":
 * {"expr": "request.userInfo.username"}}}`). Paths are literal. Checked
 * when the backend is declared, rendered per call.
 */

import type { JsonValue } from '../../api/meta';
import { fieldError, type FieldError } from '../../machinery/field-errors';
import { isPlainObject } from '../../machinery/json';
import { compileBackendExpression, evaluateBackendExpression, type BackendVariables } from './cel';
import type { PatchTemplateOp } from './types';

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;

/** An `{"expr": "..."}` node's expression. */
function expressionOf(node: unknown): string | undefined {
  if (!isPlainObject(node)) return undefined;
  const keys = Object.keys(node);
  return keys.length === 1 && keys[0] === 'expr' && typeof node.expr === 'string' ? node.expr : undefined;
}

function isPointer(path: unknown): path is string {
  return typeof path === 'string' && (path === '' || path.startsWith('/'));
}

/** The problems of a template at `field` (e.g. `rules[0].patch`). */
export function validatePatchTemplate(template: unknown, field: string): FieldError[] {
  if (!Array.isArray(template))
    return [fieldError.invalid(field, template, 'must be a list of JSON-patch operations')];
  const errors: FieldError[] = [];
  template.forEach((op: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!isPlainObject(op)) {
      errors.push(fieldError.invalid(at, op, 'must be an object {op, path, value?, from?}'));
      return;
    }
    if (!(OPS as readonly unknown[]).includes(op.op))
      errors.push(fieldError.notSupported(`${at}.op`, op.op, OPS));
    if (op.path === undefined) errors.push(fieldError.required(`${at}.path`));
    else if (!isPointer(op.path))
      errors.push(
        fieldError.invalid(`${at}.path`, op.path, 'must be a JSON pointer ("" or starting with "/")'),
      );
    if (op.op === 'move' || op.op === 'copy') {
      if (op.from === undefined) errors.push(fieldError.required(`${at}.from`));
      else if (!isPointer(op.from))
        errors.push(
          fieldError.invalid(`${at}.from`, op.from, 'must be a JSON pointer ("" or starting with "/")'),
        );
    }
    if ((op.op === 'add' || op.op === 'replace' || op.op === 'test') && !('value' in op))
      errors.push(fieldError.required(`${at}.value`));
    if ('value' in op) errors.push(...validateValue(op.value, `${at}.value`));
  });
  return errors;
}

function validateValue(value: unknown, field: string): FieldError[] {
  const expr = expressionOf(value);
  if (expr !== undefined) {
    const compiled = compileBackendExpression(expr);
    return typeof compiled === 'string' ? [fieldError.invalid(`${field}.expr`, expr, compiled)] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => validateValue(v, `${field}[${i}]`));
  if (isPlainObject(value))
    return Object.entries(value).flatMap(([k, v]) => validateValue(v, `${field}.${k}`));
  return [];
}

/** The concrete patch for one request; throws an Error naming the failing expression. */
export function renderPatch(template: readonly PatchTemplateOp[], vars: BackendVariables): JsonValue[] {
  return template.map((op, i) => {
    const out: Record<string, JsonValue> = { op: op.op, path: op.path };
    if (op.from !== undefined) out.from = op.from;
    if (op.value !== undefined) out.value = renderValue(op.value, vars, `patch[${i}].value`);
    return out;
  });
}

function renderValue(value: JsonValue, vars: BackendVariables, field: string): JsonValue {
  const expr = expressionOf(value);
  if (expr !== undefined) {
    const result = evaluateBackendExpression(expr, vars);
    if (!result.ok) throw new Error(`${field}.expr: ${result.message}`);
    return result.value;
  }
  if (Array.isArray(value)) return value.map((v, i) => renderValue(v, vars, `${field}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, renderValue(v, vars, `${field}.${k}`)]),
    );
  return value;
}
