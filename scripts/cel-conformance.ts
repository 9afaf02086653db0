/**
 * Measures the CEL engines on the conformance data of `@bufbuild/cel-spec`
 * (the measurement behind docs/decisions/0002-cel-engine.md): pass rate per
 * suite for `cel-js` 0.8.2, `@marcbachmann/cel-js` 8.0.0 as shipped,
 * `@bufbuild/cel` 0.6.1, and our layer (`src/cel`, the chosen engine with our
 * fixes); evaluation time of a three-clause rule; and the minified+gzip size
 * each engine adds to a bundle. Run: `npx tsx scripts/cel-conformance.ts`
 * (`--failures=<engine>` lists that engine's failing cases).
 */

import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { evaluate as chromeEvaluate } from 'cel-js';
import { Environment } from '@marcbachmann/cel-js';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import {
  celEnv,
  plan,
  parse,
  isCelError,
  celList,
  celMap,
  celUint,
  isCelUint,
  isCelList,
  isCelMap,
  isCelType,
} from '@bufbuild/cel';
import type { CelInput, CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { equals as protoEquals } from '@bufbuild/protobuf';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import type { SimpleTest } from '@bufbuild/cel-spec/cel/expr/conformance/test/simple_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import {
  KUBERNETES_SUITES,
  bindings,
  conformanceCases,
  conformanceRegistry,
  declaredVariables,
  jsEquals,
  plainValue,
  runCase,
  usesProtobuf,
  toJs,
  type Engine,
  type PlainValue,
  type ValueShapes,
  conformanceEngine,
} from '../test/support/cel-conformance';

const marcShapes: ValueShapes = {
  uint: (v) => new UnsignedInt(v),
  uintValue: (v) => (v instanceof UnsignedInt ? v.value : undefined),
  timestamp: (s, n) => new Date(Number(s) * 1000 + Math.floor(n / 1e6)),
  timestampParts: (v) => {
    if (!(v instanceof Date)) return undefined;
    const ms = v.getTime();
    const seconds = Math.floor(ms / 1000);
    return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1e6 };
  },
  duration: (s, n) => new Duration(s, n),
  durationParts: (v) => (v instanceof Duration ? { seconds: v.seconds, nanos: v.nanos } : undefined),
  typeName: (v) =>
    v !== null && typeof v === 'object' && 'name' in v && typeof v.name === 'string' ? v.name : undefined,
};

function marcbachmann(): Engine {
  return {
    name: '@marcbachmann/cel-js 8.0.0',
    evaluate(test) {
      const env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
      for (const [name, type] of declaredVariables(test)) {
        try {
          env.registerVariable(name, type);
        } catch {
          env.registerVariable(name, 'dyn');
        }
      }
      const context: Record<string, unknown> = {};
      for (const [name, value] of bindings(test)) context[name] = toJs(value, marcShapes);
      return { value: env.evaluate(test.expr, context) as unknown };
    },
    equals: (actual, expected) => jsEquals(actual, plainValue(expected), marcShapes),
  };
}

function chromeToJs(p: PlainValue): unknown {
  switch (p.kind) {
    case 'int':
    case 'uint':
      return Number(p.value);
    case 'list':
      return p.items.map(chromeToJs);
    case 'map':
      return Object.fromEntries(
        p.entries.map(([k, v]) => [String((k as { value?: unknown }).value), chromeToJs(v)]),
      );
    case 'timestamp':
      return new Date(Number(p.seconds) * 1000 + Math.floor(p.nanos / 1e6));
    default:
      return toJs(p, marcShapes);
  }
}

function chromeEquals(actual: unknown, p: PlainValue): boolean {
  switch (p.kind) {
    case 'int':
    case 'uint':
      return typeof actual === 'number' && actual === Number(p.value);
    case 'list':
      return (
        Array.isArray(actual) &&
        actual.length === p.items.length &&
        actual.every((a, i) => chromeEquals(a, p.items[i]!))
      );
    case 'map': {
      if (actual === null || typeof actual !== 'object') return false;
      const entries = Object.entries(actual);
      return (
        entries.length === p.entries.length &&
        p.entries.every(([k, v]) =>
          chromeEquals((actual as Record<string, unknown>)[String((k as { value?: unknown }).value)], v),
        )
      );
    }
    default:
      return jsEquals(actual, p, marcShapes);
  }
}

function chromeGG(): Engine {
  return {
    name: 'cel-js 0.8.2',
    evaluate(test) {
      const context: Record<string, unknown> = {};
      for (const [name, value] of bindings(test)) context[name] = chromeToJs(value);
      return { value: chromeEvaluate(test.expr, context as never) as unknown };
    },
    equals: (actual, expected) => chromeEquals(actual, plainValue(expected)),
  };
}

function bufToInput(value: Value): CelInput {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
      return null;
    case 'uint64Value':
      return celUint(kind.value);
    case 'enumValue':
      return BigInt(kind.value.value);
    case 'listValue':
      return celList(kind.value.values.map(bufToInput));
    case 'mapValue':
      return celMap(
        new Map(kind.value.entries.map((e) => [bufToInput(e.key!) as string, bufToInput(e.value!)])),
      );
    case 'objectValue': {
      const message = anyUnpack(kind.value, conformanceRegistry);
      if (message === undefined) throw new Error(`unknown message ${kind.value.typeUrl}`);
      return message as CelInput;
    }
    case 'typeValue':
    case undefined:
      throw new Error(`cannot bind ${kind.case}`);
    default:
      return kind.value;
  }
}

function bufEquals(actual: CelValue, expected: Value): boolean {
  const kind = expected.kind;
  switch (kind.case) {
    case 'uint64Value':
      return isCelUint(actual) && actual.value === kind.value;
    case 'listValue': {
      if (!isCelList(actual)) return false;
      const items = [...actual];
      return (
        items.length === kind.value.values.length &&
        items.every((a, i) => bufEquals(a, kind.value.values[i]!))
      );
    }
    case 'mapValue': {
      if (!isCelMap(actual)) return false;
      const entries = [...actual.entries()];
      return (
        entries.length === kind.value.entries.length &&
        kind.value.entries.every((e) =>
          entries.some(([k, v]) => bufEquals(k, e.key!) && bufEquals(v, e.value!)),
        )
      );
    }
    case 'typeValue':
      return (
        isCelType(actual) &&
        (actual.name === kind.value || (kind.value === 'null_type' && actual.name === 'null_type'))
      );
    case 'objectValue': {
      const message = anyUnpack(kind.value, conformanceRegistry);
      return (
        message !== undefined &&
        isReflectMessage(actual) &&
        actual.desc.typeName === message.$typeName &&
        protoEquals(actual.desc, actual.message, message as never, {
          registry: conformanceRegistry,
          unpackAny: true,
        })
      );
    }
    case 'enumValue':
      return actual === BigInt(kind.value.value);
    default: {
      const plain = plainValue(expected);
      return jsEquals(actual, plain, marcShapes);
    }
  }
}

function bufbuild(): Engine {
  return {
    name: '@bufbuild/cel 0.6.1',
    evaluate(test: SimpleTest) {
      const env = celEnv({ registry: conformanceRegistry, namespace: test.container, funcs: strings });
      const vars: Record<string, CelInput> = {};
      for (const [name, exprValue] of Object.entries(test.bindings)) {
        if (exprValue.kind.case === 'value') vars[name] = bufToInput(exprValue.kind.value);
      }
      const result = plan(env, parse(test.expr))(vars);
      return isCelError(result) ? { error: result } : { value: result };
    },
    equals: (actual, expected) => bufEquals(actual as CelValue, expected),
  };
}

interface Tally {
  pass: number;
  total: number;
}

/** Tallies the Kubernetes suites' cases that need no protobuf (the cases Kubernetes data can reach). */
const K8S_REACHABLE = '(kubernetes, no protobuf)';

function measure(
  engine: Engine,
  cases: ReturnType<typeof conformanceCases>,
  listFailures: boolean,
): Map<string, Tally> {
  const bySuite = new Map<string, Tally>([[K8S_REACHABLE, { pass: 0, total: 0 }]]);
  for (const c of cases) {
    const tally = bySuite.get(c.path[0]) ?? { pass: 0, total: 0 };
    bySuite.set(c.path[0], tally);
    const reachable = (KUBERNETES_SUITES as readonly string[]).includes(c.path[0]) && !usesProtobuf(c.test);
    const counted = reachable ? [tally, bySuite.get(K8S_REACHABLE)!] : [tally];
    for (const t of counted) t.total++;
    const result = runCase(engine, c.test);
    if (result.ok) for (const t of counted) t.pass++;
    else if (listFailures)
      console.log(`  ${c.path.join(' / ')}: ${c.test.expr.replace(/\s+/g, ' ')} -> ${result.why}`);
  }
  return bySuite;
}

function pct(t: Tally): string {
  return t.total === 0 ? '-' : `${((100 * t.pass) / t.total).toFixed(1)}%`;
}

function sum(tallies: Map<string, Tally>, suites?: readonly string[]): Tally {
  const out = { pass: 0, total: 0 };
  for (const [suite, t] of tallies) {
    if (suite === K8S_REACHABLE || (suites !== undefined && !suites.includes(suite))) continue;
    out.pass += t.pass;
    out.total += t.total;
  }
  return out;
}

/** Mean µs per evaluation of a prepared three-clause rule. */
function timeEval(fn: () => unknown): number {
  for (let i = 0; i < 20_000; i++) fn();
  const n = 200_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - start) * 1000) / n;
}

function speed(): Record<string, number> {
  const rule =
    'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas && self.name == "web-1"';
  const marcEnv = new Environment({ unlistedVariablesAreDyn: true });
  const marc = marcEnv.parse(rule);
  const marcCtx = { self: { minReplicas: 1n, replicas: 3n, maxReplicas: 5n, name: 'web-1' } };
  const buf = plan(celEnv({ funcs: strings }), parse(rule));
  const bufCtx = {
    self: celMap(
      new Map<string, CelInput>([
        ['minReplicas', 1n],
        ['replicas', 3n],
        ['maxReplicas', 5n],
        ['name', 'web-1'],
      ]),
    ),
  };
  const chromeCtx = { self: { minReplicas: 1, replicas: 3, maxReplicas: 5, name: 'web-1' } };
  const ours = conformanceEngine().prepare(rule, {
    self: { minReplicas: 1n, replicas: 3n, maxReplicas: 5n, name: 'web-1' },
  });
  return {
    'cel-js 0.8.2': timeEval(() => chromeEvaluate(rule, chromeCtx)),
    '@marcbachmann/cel-js 8.0.0': timeEval(() => marc(marcCtx)),
    '@bufbuild/cel 0.6.1': timeEval(() => buf(bufCtx)),
    'ours (src/cel, cost tracking on)': timeEval(ours),
  };
}

async function bundleGzip(entry: string): Promise<number> {
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0]!.contents).length;
}

async function sizes(): Promise<Record<string, number>> {
  return {
    'cel-js 0.8.2': await bundleGzip(`import { evaluate } from 'cel-js'; console.log(evaluate);`),
    '@marcbachmann/cel-js 8.0.0': await bundleGzip(
      `import { Environment } from '@marcbachmann/cel-js'; console.log(Environment);`,
    ),
    '@bufbuild/cel 0.6.1 (+ strings ext)': await bundleGzip(
      `import { run } from '@bufbuild/cel'; import { strings } from '@bufbuild/cel/ext'; console.log(run, strings);`,
    ),
    're2js 2.10.0': await bundleGzip(`import { RE2JS } from 're2js'; console.log(RE2JS);`),
    'src/cel (engine + re2js + our layer)': await bundleGzip(
      `import * as cel from './src/cel/index'; console.log(cel);`,
    ),
  };
}

async function main(): Promise<void> {
  const failuresOf = process.argv.find((a) => a.startsWith('--failures='))?.slice('--failures='.length);
  const cases = conformanceCases();
  const engines = [chromeGG(), marcbachmann(), bufbuild(), conformanceEngine()];
  const results = engines.map((e) => ({
    engine: e,
    tallies: measure(e, cases, failuresOf !== undefined && e.name.includes(failuresOf)),
  }));
  const suites = [...new Set(cases.map((c) => c.path[0]))];
  console.log(`\nCEL conformance (@bufbuild/cel-spec 0.6.1 = cel-spec v0.25.1), ${cases.length} cases\n`);
  console.log(['suite', 'cases', ...engines.map((e) => e.name)].join(' | '));
  for (const suite of suites.filter((s) => s !== K8S_REACHABLE)) {
    const k8s = (KUBERNETES_SUITES as readonly string[]).includes(suite) ? ' *' : '';
    console.log(
      [
        `${suite}${k8s}`,
        results[0]!.tallies.get(suite)!.total,
        ...results.map((r) => pct(r.tallies.get(suite)!)),
      ].join(' | '),
    );
  }
  console.log(['all suites', cases.length, ...results.map((r) => pct(sum(r.tallies)))].join(' | '));
  console.log(
    [
      '* Kubernetes suites',
      sum(results[0]!.tallies, KUBERNETES_SUITES).total,
      ...results.map((r) => pct(sum(r.tallies, KUBERNETES_SUITES))),
    ].join(' | '),
  );
  const reachable = (r: (typeof results)[number]): Tally => r.tallies.get(K8S_REACHABLE)!;
  console.log(
    [
      '* … without protobuf cases',
      reachable(results[0]!).total,
      ...results.map((r) => pct(reachable(r))),
    ].join(' | '),
  );
  console.log('\nµs per evaluation of a prepared three-clause rule:');
  for (const [name, us] of Object.entries(speed())) console.log(`  ${name}: ${us.toFixed(2)} µs`);
  console.log('\nminified + gzip bundle size:');
  for (const [name, bytes] of Object.entries(await sizes()))
    console.log(`  ${name}: ${(bytes / 1024).toFixed(1)} KB`);
}

await main();
