/**
 * Harness for the CEL conformance data of `@bufbuild/cel-spec` (cel-spec
 * v0.25.1 test files): flattens the suites into cases with a path, converts
 * the protobuf `cel.expr.Value` bindings and expectations to and from the JS
 * values of the `@marcbachmann/cel-js` family (ours included), and runs one
 * case through an engine adapter. Used by `src/cel/conformance.test.ts` and by
 * `scripts/cel-conformance.ts`, which measures every engine the same way.
 */

import { getConformanceSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import type { Type } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { baseEnvironment, deriveEnvironment } from '../../src/cel/env';
import { compileExpression, isCompileError } from '../../src/cel/program';
import { CostTracker, withTracker } from '../../src/cel/cost';
import { celLibrary } from '../../src/cel/engine';
import { durationFromNanos, timestampFromNanos, timestampParts } from '../../src/cel/time';

// Both users run our layer's synchronous core directly, outside the server's entry points that load the library.
await celLibrary.load();

export interface ConformanceCase {
  /** `[suite, section, test]`, the names of the cel-spec test files. */
  path: [string, string, string];
  test: SimpleTest;
}

/** Top-level suites whose features Kubernetes validation rules can reach (no protobuf messages, enums or later extensions). */
export const KUBERNETES_SUITES = [
  'basic',
  'comparisons',
  'conversions',
  'fields',
  'fp_math',
  'integer_math',
  'lists',
  'logic',
  'macros',
  'parse',
  'plumbing',
  'string',
  'string_ext',
  'timestamps',
] as const;

export function conformanceCases(): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  const walk = (suite: IncrementalTestSuite, prefix: string[]): void => {
    for (const child of suite.suites) walk(child, [...prefix, child.name]);
    for (const t of suite.tests) {
      const [top = '', section = ''] = prefix;
      cases.push({ path: [top, section, t.original.name || t.name], test: t.original });
    }
  };
  walk(getConformanceSuite(), []);
  return cases;
}

export const conformanceRegistry = getTestRegistry();

const PROTOBUF =
  /\b(?:TestAllTypes|NestedTestAllTypes|NestedMessage|GlobalEnum|google\.protobuf\.(?!Timestamp\b|Duration\b)\w+)\b|\bproto[23]\b/;

/** The case needs protobuf messages (literals, wrappers, containers, message bindings or results), which Kubernetes data never is. */
export function usesProtobuf(test: SimpleTest): boolean {
  if (test.container !== '' || PROTOBUF.test(test.expr)) return true;
  const isMessage = (v: Value | undefined): boolean => v !== undefined && plainValue(v).kind === 'message';
  if (Object.values(test.bindings).some((b) => b.kind.case === 'value' && isMessage(b.kind.value)))
    return true;
  return test.resultMatcher.case === 'value' && isMessage(test.resultMatcher.value);
}

/** Outcome of one case: `pass`, or `fail` with what went wrong. */
export type CaseResult = { ok: true } | { ok: false; why: string };

/** What an engine adapter offers the harness: evaluate with bindings and declared variable types. */
export interface Engine {
  name: string;
  evaluate(test: SimpleTest): { value: unknown } | { error: unknown };
  /** Compares an engine result with the expected value. */
  equals(actual: unknown, expected: Value): boolean;
}

export function runCase(engine: Engine, test: SimpleTest): CaseResult {
  let outcome: { value: unknown } | { error: unknown };
  try {
    outcome = engine.evaluate(test);
  } catch (error) {
    outcome = { error };
  }
  const matcher = test.resultMatcher;
  switch (matcher.case) {
    case 'evalError':
    case 'anyEvalErrors':
      return 'error' in outcome
        ? { ok: true }
        : { ok: false, why: `expected an error, got ${show(outcome.value)}` };
    case 'value':
      if ('error' in outcome) return { ok: false, why: `error: ${errorText(outcome.error)}` };
      return engine.equals(outcome.value, matcher.value)
        ? { ok: true }
        : { ok: false, why: `got ${show(outcome.value)}` };
    case 'typedResult':
      if (matcher.value.result === undefined) return 'error' in outcome ? fail(outcome.error) : { ok: true };
      if ('error' in outcome) return fail(outcome.error);
      return engine.equals(outcome.value, matcher.value.result)
        ? { ok: true }
        : { ok: false, why: `got ${show(outcome.value)}` };
    case undefined:
      if ('error' in outcome) return fail(outcome.error);
      return outcome.value === true
        ? { ok: true }
        : { ok: false, why: `expected true, got ${show(outcome.value)}` };
    default:
      return { ok: false, why: `unsupported matcher ${matcher.case}` };
  }
}

function fail(error: unknown): CaseResult {
  return { ok: false, why: `error: ${errorText(error)}` };
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.message;
  return String(error);
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A binding value, decoded from protobuf, before an engine gives it its own JS shape. */
export type PlainValue =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: bigint }
  | { kind: 'uint'; value: bigint }
  | { kind: 'double'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'list'; items: PlainValue[] }
  | { kind: 'map'; entries: [PlainValue, PlainValue][] }
  | { kind: 'type'; name: string }
  | { kind: 'timestamp'; seconds: bigint; nanos: number }
  | { kind: 'duration'; seconds: bigint; nanos: number }
  | { kind: 'message'; typeName: string };

export function plainValue(value: Value): PlainValue {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return { kind: 'null' };
    case 'boolValue':
      return { kind: 'bool', value: kind.value };
    case 'int64Value':
      return { kind: 'int', value: kind.value };
    case 'uint64Value':
      return { kind: 'uint', value: kind.value };
    case 'doubleValue':
      return { kind: 'double', value: kind.value };
    case 'stringValue':
      return { kind: 'string', value: kind.value };
    case 'bytesValue':
      return { kind: 'bytes', value: kind.value };
    case 'enumValue':
      return { kind: 'int', value: BigInt(kind.value.value) };
    case 'listValue':
      return { kind: 'list', items: kind.value.values.map(plainValue) };
    case 'mapValue':
      return {
        kind: 'map',
        entries: kind.value.entries.map((e): [PlainValue, PlainValue] => [
          e.key === undefined ? { kind: 'null' } : plainValue(e.key),
          e.value === undefined ? { kind: 'null' } : plainValue(e.value),
        ]),
      };
    case 'typeValue':
      return { kind: 'type', name: kind.value };
    case 'objectValue': {
      const typeName = kind.value.typeUrl.slice(kind.value.typeUrl.lastIndexOf('/') + 1);
      const message = anyUnpack(kind.value, conformanceRegistry);
      if (
        message !== undefined &&
        (typeName === 'google.protobuf.Timestamp' || typeName === 'google.protobuf.Duration')
      ) {
        const m = message as unknown as { seconds: bigint; nanos: number };
        return {
          kind: typeName === 'google.protobuf.Timestamp' ? 'timestamp' : 'duration',
          seconds: m.seconds,
          nanos: m.nanos,
        };
      }
      return { kind: 'message', typeName };
    }
    default:
      return { kind: 'null' };
  }
}

/** The CEL type name of a declared variable type, in the `@marcbachmann/cel-js` spelling; `dyn` when unsupported. */
export function declaredTypeName(type: Type | undefined): string {
  const kind = type?.typeKind;
  switch (kind?.case) {
    case 'primitive':
      return ['dyn', 'bool', 'int', 'uint', 'double', 'string', 'bytes'][kind.value] ?? 'dyn';
    case 'wellKnown':
      return ['dyn', 'dyn', 'google.protobuf.Timestamp', 'google.protobuf.Duration'][kind.value] ?? 'dyn';
    case 'messageType':
      return kind.value === 'google.protobuf.Timestamp' || kind.value === 'google.protobuf.Duration'
        ? kind.value
        : 'dyn';
    case 'listType':
      return `list<${declaredTypeName(kind.value.elemType)}>`;
    case 'mapType':
      return `map<${declaredTypeName(kind.value.keyType)}, ${declaredTypeName(kind.value.valueType)}>`;
    case 'null':
      return 'null';
    default:
      return 'dyn';
  }
}

/** Declared variables of a case: name and the `@marcbachmann/cel-js` type name. */
export function declaredVariables(test: SimpleTest): [string, string][] {
  const out: [string, string][] = [];
  for (const decl of test.typeEnv) {
    if (decl.declKind.case === 'ident') out.push([decl.name, declaredTypeName(decl.declKind.value.type)]);
  }
  return out;
}

/** Bound values of a case, decoded. */
export function bindings(test: SimpleTest): [string, PlainValue][] {
  const out: [string, PlainValue][] = [];
  for (const [name, exprValue] of Object.entries(test.bindings)) {
    if (exprValue.kind.case === 'value') out.push([name, plainValue(exprValue.kind.value)]);
  }
  return out;
}

/** How an engine of the `@marcbachmann/cel-js` family spells the values that JSON cannot. */
export interface ValueShapes {
  uint(value: bigint): unknown;
  uintValue(value: unknown): bigint | undefined;
  timestamp(seconds: bigint, nanos: number): unknown;
  timestampParts(value: unknown): { seconds: bigint; nanos: number } | undefined;
  duration(seconds: bigint, nanos: number): unknown;
  durationParts(value: unknown): { seconds: bigint; nanos: number } | undefined;
  typeName(value: unknown): string | undefined;
}

export function toJs(p: PlainValue, shapes: ValueShapes): unknown {
  switch (p.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'int':
    case 'double':
    case 'string':
    case 'bytes':
      return p.value;
    case 'uint':
      return shapes.uint(p.value);
    case 'list':
      return p.items.map((item) => toJs(item, shapes));
    case 'map': {
      if (p.entries.every(([k]) => k.kind === 'string')) {
        const obj: Record<string, unknown> = {};
        for (const [k, v] of p.entries) obj[(k as { value: string }).value] = toJs(v, shapes);
        return obj;
      }
      return new Map(p.entries.map(([k, v]) => [toJs(k, shapes), toJs(v, shapes)]));
    }
    case 'timestamp':
      return shapes.timestamp(p.seconds, p.nanos);
    case 'duration':
      return shapes.duration(p.seconds, p.nanos);
    case 'type':
    case 'message':
      throw new Error(`cannot bind a ${p.kind} value`);
  }
}

/** CEL equality of an engine value with an expected value (NaN equals NaN here, as the test data means it). */
export function jsEquals(actual: unknown, p: PlainValue, shapes: ValueShapes): boolean {
  switch (p.kind) {
    case 'null':
      return actual === null;
    case 'bool':
    case 'string':
      return actual === p.value;
    case 'int':
      return typeof actual === 'bigint' && actual === p.value;
    case 'uint':
      return shapes.uintValue(actual) === p.value;
    case 'double':
      return (
        typeof actual === 'number' && (actual === p.value || (Number.isNaN(actual) && Number.isNaN(p.value)))
      );
    case 'bytes':
      return (
        actual instanceof Uint8Array &&
        actual.length === p.value.length &&
        actual.every((b, i) => b === p.value[i])
      );
    case 'list': {
      const items = Array.isArray(actual) ? actual : actual instanceof Set ? [...actual] : undefined;
      return (
        items !== undefined &&
        items.length === p.items.length &&
        items.every((item, i) => jsEquals(item, p.items[i]!, shapes))
      );
    }
    case 'map': {
      const entries: [unknown, unknown][] =
        actual instanceof Map
          ? [...actual.entries()]
          : actual !== null && typeof actual === 'object' && !Array.isArray(actual)
            ? Object.entries(actual)
            : [];
      if (
        entries.length !== p.entries.length ||
        (entries.length === 0 && !(actual instanceof Map) && (actual === null || typeof actual !== 'object'))
      )
        return false;
      return p.entries.every(([k, v]) =>
        entries.some(([ak, av]) => jsEquals(ak, k, shapes) && jsEquals(av, v, shapes)),
      );
    }
    case 'type':
      return (
        shapes.typeName(actual) === p.name || (p.name === 'null_type' && shapes.typeName(actual) === 'null')
      );
    case 'timestamp': {
      const parts = shapes.timestampParts(actual);
      return parts !== undefined && parts.seconds === p.seconds && parts.nanos === p.nanos;
    }
    case 'duration': {
      const parts = shapes.durationParts(actual);
      return parts !== undefined && parts.seconds === p.seconds && parts.nanos === p.nanos;
    }
    case 'message':
      return false;
  }
}

/** Value shapes of our layer (`src/cel`): timestamps keep nanoseconds. */
export const ourShapes: ValueShapes = {
  uint: (v) => new UnsignedInt(v),
  uintValue: (v) => (v instanceof UnsignedInt ? v.value : undefined),
  timestamp: (s, n) => timestampFromNanos(s * 1_000_000_000n + BigInt(n)),
  timestampParts: (v) => (v instanceof Date ? timestampParts(v) : undefined),
  duration: (s, n) => durationFromNanos(s * 1_000_000_000n + BigInt(n)),
  durationParts: (v) => (v instanceof Duration ? { seconds: v.seconds, nanos: v.nanos } : undefined),
  typeName: (v) =>
    v !== null && typeof v === 'object' && 'name' in v && typeof v.name === 'string' ? v.name : undefined,
};

/** Our layer as a conformance engine: the standard environment with heterogeneous literals, `disable_check` run unchecked. */
export function conformanceEngine(): Engine & {
  prepare(expr: string, context: Record<string, unknown>): () => unknown;
} {
  const base = baseEnvironment({ homogeneousAggregateLiterals: false, kubernetesOnly: false });
  const compile = (expr: string, variables: [string, string][], unchecked: boolean) => {
    const env = deriveEnvironment(base, (engine) => {
      for (const [name, type] of variables) {
        try {
          engine.registerVariable(name, type);
        } catch {
          engine.registerVariable(name, 'dyn');
        }
      }
    });
    const compiled = compileExpression(env, expr, { unchecked });
    if (isCompileError(compiled)) throw new Error(compiled.message);
    return compiled;
  };
  return {
    name: 'ours (src/cel)',
    evaluate(test) {
      const compiled = compile(test.expr, declaredVariables(test), test.disableCheck);
      const context: Record<string, unknown> = {};
      for (const [name, value] of bindings(test)) context[name] = toJs(value, ourShapes);
      return {
        value: withTracker(new CostTracker(Number.POSITIVE_INFINITY, 'per-call'), () =>
          compiled.program(context),
        ),
      };
    },
    equals: (actual, expected) => jsEquals(actual, plainValue(expected), ourShapes),
    prepare(expr, context) {
      const vars = Object.keys(context).map((name): [string, string] => [name, 'dyn']);
      const compiled = compile(expr, vars, false);
      return () => withTracker(new CostTracker(1e9, 'per-call'), () => compiled.program(context));
    },
  };
}
