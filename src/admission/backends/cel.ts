/**
 * The CEL environment of rule backends: `request` is the whole
 * AdmissionReview request (dynamic, object and oldObject included) and
 * `object` / `oldObject` are shortcuts to its objects, so a rule reads like
 * a webhook's own code. Results of patch-value expressions come back as
 * JSON (ints as numbers, maps as objects). The CEL library is loaded on
 * first use (see cel/engine.ts): `loadCelFor` before validating or running
 * a backend's rules.
 */

import type { JsonValue } from '../../api/meta';
import { celLibrary } from '../../cel/engine';
import { isPlainObject } from '../../machinery/json';
import { compileExpression, isCompileError, type CompiledExpression } from '../../cel/program';
import { baseEnvironment, deriveEnvironment, type CelEnvironment } from '../../cel/env';
import { dynamic } from '../../cel/convert';
import { evaluateExpression } from '../../cel/evaluate';

/** Loads the CEL library when a backend (stored, or a body to validate) has rules with a `when` or a patch. */
export async function loadCelFor(backend: unknown): Promise<void> {
  const rules = isPlainObject(backend) ? backend.rules : undefined;
  if (
    Array.isArray(rules) &&
    rules.some((r) => isPlainObject(r) && (r.when !== undefined || r.patch !== undefined))
  )
    await celLibrary.load();
}

let environment: CelEnvironment | undefined;

function env(): CelEnvironment {
  environment ??= deriveEnvironment(baseEnvironment(), (engine) => {
    engine.registerVariable('request', 'dyn');
    engine.registerVariable('object', 'dyn');
    engine.registerVariable('oldObject', 'dyn');
  });
  return environment;
}

// Compiling is the costly part and backends are read from storage per call: keep compiled expressions by source.
const compiled = new Map<string, CompiledExpression>();
const MAX_CACHED = 500;

/** The compiled expression, or the compile error's text. */
export function compileBackendExpression(source: string, expect?: 'bool'): CompiledExpression | string {
  const hit = compiled.get(source);
  const result = hit ?? compileExpression(env(), source);
  if (isCompileError(result)) return result.message;
  if (expect !== undefined && result.resultType.name !== expect && result.resultType.name !== 'dyn')
    return `expression must evaluate to ${expect}, not ${result.resultType.name}`;
  if (hit === undefined) {
    if (compiled.size >= MAX_CACHED) compiled.clear();
    compiled.set(source, result);
  }
  return result;
}

export type BackendVariables = Record<string, unknown>;

/** Binds the review's request once for every expression of one call. */
export function bindRequest(request: Record<string, JsonValue>): BackendVariables {
  return {
    request: dynamic(request),
    object: dynamic(request.object ?? null),
    oldObject: dynamic(request.oldObject ?? null),
  };
}

export type Evaluated = { ok: true; value: JsonValue } | { ok: false; message: string };

export function evaluateBackendExpression(source: string, vars: BackendVariables): Evaluated {
  const program = compileBackendExpression(source);
  if (typeof program === 'string') return { ok: false, message: program };
  const result = evaluateExpression(program, vars);
  if (result.status === 'error') return { ok: false, message: result.message };
  if (result.status === 'cost-exceeded')
    return { ok: false, message: 'operation cancelled: actual cost limit exceeded' };
  return { ok: true, value: toJson(result.value) };
}

/** A CEL value as JSON. */
export function toJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return btoa(String.fromCharCode(...value));
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Map) {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of value) out[String(k)] = toJson(v);
    return out;
  }
  if (typeof value === 'object') {
    // Timestamps, durations and other library values print as CEL's string() does.
    const text = String(value);
    if (text !== '[object Object]') return text;
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v);
    return out;
  }
  return null;
}
