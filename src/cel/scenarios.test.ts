/**
 * Runs the scenario table against the CEL module: the CRD-time outcome
 * (compile errors with positions, estimated-cost rejections at cardinality
 * 1, as for rules on the root's own fields) and, for accepted rules, the
 * exact messages validation produces for each value.
 */

import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import { compileRule, ruleCostErrors, type CompiledRule } from './rules';
import { validateRules } from './evaluate';
import { openAPISchema, scenarioSchema, scenarios } from './scenarios';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

describe('CEL rule scenarios', () => {
  it('cover every area with at least 40 scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(40);
    expect(new Set(scenarios.map((s) => s.area))).toEqual(
      new Set([
        'type-mapping',
        'escaping',
        'library',
        'transition',
        'message',
        'compile-error',
        'cost',
        'runtime-cost',
      ]),
    );
  });

  for (const scenario of scenarios) {
    it(`${scenario.area}: ${scenario.name}`, () => {
      const compiled: CompiledRule[] = [];
      const rejections: { rule: number; field: string; detail: string; line?: number; column?: number }[] =
        [];
      scenario.rules.forEach((rule, index) => {
        const result = compileRule(scenario.schema, rule, { isResourceRoot: scenario.resourceRoot === true });
        if (Array.isArray(result)) {
          for (const e of result)
            rejections.push({
              rule: index,
              field: e.field,
              detail: e.detail,
              line: e.line,
              column: e.column,
            });
          return;
        }
        for (const [field, detail] of ruleCostErrors(result)) rejections.push({ rule: index, field, detail });
        compiled.push(result);
      });
      const expected = scenario.rejects ?? [];
      expect(rejections.map((r) => `${r.rule}/${r.field}`)).toEqual(
        expected.map((r) => `${r.rule}/${r.field}`),
      );
      expected.forEach((want, i) => {
        const got = rejections[i]!;
        expect(got.detail).toContain(want.contains);
        if (want.line !== undefined)
          expect({ line: got.line, column: got.column }).toEqual({ line: want.line, column: want.column });
      });
      if (expected.length > 0) return;
      for (const check of scenario.checks ?? []) {
        const { violations } = validateRules(compiled, {
          self: check.self,
          ...(check.oldSelf !== undefined ? { oldSelf: check.oldSelf } : {}),
        });
        expect(violations.map((v) => v.message)).toEqual(check.errors);
      }
    });
  }
});

describe('scenario schemas as OpenAPI', () => {
  it('spell the markers with the profile prefix and carry the rules', () => {
    const scenario = scenarios.find((s) => s.name.startsWith('map lists compare'))!;
    const schema = openAPISchema(scenarioSchema(scenario), 'x-kubernetes');
    expect(schema['x-kubernetes-validations']).toEqual(scenario.rules);
    expect((schema.properties as Record<string, unknown>).ports).toMatchObject({
      type: 'array',
      maxItems: 16,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
  });
});
