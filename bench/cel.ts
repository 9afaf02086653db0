/**
 * CEL benchmark: throughput of validating an object with a 100-item list
 * against 10 rules (conversion of the JSON plus evaluation with cost
 * tracking), beside the same checks written as plain TypeScript (the floor),
 * as a ratio; and the time of a pathological pattern (`^(a+)+$`) under
 * `matches` at input lengths 1k, 10k and 100k, which grows linearly because
 * matching is RE2's (its floor is the 1k time scaled linearly, so a ratio
 * near 1 means linear). `runCelBench` returns the figures for `npm run bench`
 * (section `cel`); `npx tsx bench/cel.ts` prints them.
 */

import { pathToFileURL } from 'node:url';
import type { JsonObject } from '../src/api/meta';
import type { SchemaNode } from '../src/machinery/schema';
import { celLibrary, compileRule, evaluateRule, validateRules, type CompiledRule } from '../src/cel';
import { printFigures, type Figure } from './report';

// The bench runs the synchronous core directly, outside the server's entry points that load the library.
await celLibrary.load();

const schema: SchemaNode = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' },
    minReplicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 63 }, maxProperties: 16 },
    items: {
      type: 'array',
      maxItems: 100,
      listType: 'map',
      listMapKeys: ['name'],
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 63 },
          port: { type: 'integer' },
          protocol: { type: 'string', maxLength: 8 },
          weight: { type: 'number' },
        },
      },
    },
  },
};

const RULES = [
  'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
  'self.items.all(i, i.port > 0 && i.port < 65536)',
  "self.items.all(i, i.name.matches('^[a-z][-a-z0-9]*$'))",
  "self.items.exists_one(i, i.name == 'primary')",
  'self.items.map(i, i.weight).sum() <= 100.0',
  "self.items.all(i, i.protocol in ['TCP', 'UDP'])",
  'size(self.items) <= 100',
  'self.labels.all(k, k.size() <= 63)',
  "'app' in self.labels",
  'self.items.filter(i, i.port == 80).size() <= 1',
];

interface Item {
  name: string;
  port: number;
  protocol: string;
  weight: number;
}

function sampleObject(): JsonObject {
  const items: Item[] = Array.from({ length: 100 }, (_, i) => ({
    name: i === 0 ? 'primary' : `port-${i}`,
    port: 1000 + i,
    protocol: i % 2 === 0 ? 'TCP' : 'UDP',
    weight: 0.5,
  }));
  items[1]!.port = 80;
  return {
    replicas: 3,
    minReplicas: 1,
    maxReplicas: 5,
    labels: { app: 'web', tier: 'frontend' },
    items: items as unknown as JsonObject[],
  };
}

/** The same ten checks in plain TypeScript over the JSON. */
function plainChecks(o: {
  replicas: number;
  minReplicas: number;
  maxReplicas: number;
  labels: Record<string, string>;
  items: Item[];
}): boolean[] {
  const name = /^[a-z][-a-z0-9]*$/;
  return [
    o.minReplicas <= o.replicas && o.replicas <= o.maxReplicas,
    o.items.every((i) => i.port > 0 && i.port < 65536),
    o.items.every((i) => name.test(i.name)),
    o.items.filter((i) => i.name === 'primary').length === 1,
    o.items.reduce((s, i) => s + i.weight, 0) <= 100,
    o.items.every((i) => i.protocol === 'TCP' || i.protocol === 'UDP'),
    o.items.length <= 100,
    Object.keys(o.labels).every((k) => k.length <= 63),
    'app' in o.labels,
    o.items.filter((i) => i.port === 80).length <= 1,
  ];
}

function opsPerSecond(fn: () => unknown, minMs = 400): number {
  for (let i = 0; i < 50; i++) fn();
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let i = 0; i < 20; i++) fn();
    n += 20;
    elapsed = performance.now() - start;
  }
  return (n * 1000) / elapsed;
}

function compiledRules(): CompiledRule[] {
  return RULES.map((rule) => {
    const compiled = compileRule(schema, rule);
    if (Array.isArray(compiled)) throw new Error(`bench rule does not compile: ${compiled[0]?.detail}`);
    return compiled;
  });
}

export function runCelBench(): Figure[] {
  const rules = compiledRules();
  const object = sampleObject();
  const first = validateRules(rules, { self: object });
  if (first.violations.length > 0)
    throw new Error(`bench object is invalid: ${first.violations[0]!.message}`);
  if (plainChecks(object as never).some((ok) => !ok)) throw new Error('bench object fails the plain checks');
  const cel = opsPerSecond(() => validateRules(rules, { self: object }));
  const floor = opsPerSecond(() => plainChecks(object as never));
  const results: Figure[] = [
    {
      section: 'cel',
      name: '10 rules on an object with a 100-item list',
      value: cel,
      unit: 'objects/s',
      floor,
      floorName: 'same checks in plain TypeScript',
      higherIsBetter: true,
    },
  ];
  const regexRule = compileRule({ type: 'string', maxLength: 100_000 }, "self.matches('^(a+)+$')");
  if (Array.isArray(regexRule)) throw new Error('regex bench rule does not compile');
  let perChar: number | undefined;
  for (const length of [1_000, 10_000, 100_000]) {
    const input = `${'a'.repeat(length)}!`;
    const match = (): void => {
      const outcome = evaluateRule(regexRule, { self: input });
      if (outcome.kind !== 'fail') throw new Error(`pathological regex: unexpected ${outcome.kind}`);
    };
    for (let i = 0; i < 3; i++) match();
    let runs = 0;
    const start = performance.now();
    while (performance.now() - start < 200) {
      match();
      runs++;
    }
    const ms = (performance.now() - start) / runs;
    perChar ??= ms / length;
    results.push({
      section: 'cel',
      name: `matches('^(a+)+$') on ${length / 1000}k chars`,
      value: ms,
      unit: 'ms',
      floor: perChar * length,
      floorName: 'the 1k time scaled linearly',
    });
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(printFigures(runCelBench()));
}
