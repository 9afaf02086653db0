import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import type { SchemaNode } from '../machinery/schema';
import { LIST_CREATE_BASE_COST, PER_CALL_LIMIT } from './cost';
import { OUT_OF_BUDGET, evaluateRule, validateRules } from './evaluate';
import { childCardinality, compileRule, costExceededMessage, ruleCost, type CompiledRule } from './rules';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

function compiled(schema: SchemaNode, rule: string): CompiledRule {
  const c = compileRule(schema, rule);
  if (Array.isArray(c)) throw new Error(c[0]!.detail);
  return c;
}

const ints: SchemaNode = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } };
const strings = (extra: Partial<SchemaNode> = {}): SchemaNode => ({
  type: 'object',
  properties: { s: { type: 'string', ...extra } },
});
const listOf = (extra: Partial<SchemaNode> = {}): SchemaNode => ({
  type: 'object',
  properties: { l: { type: 'array', items: { type: 'string', maxLength: 10 }, ...extra } },
});

describe('static cost estimate', () => {
  it('charges 1 per identifier, selection and comparison, 40 per list literal', () => {
    expect(compiled(ints, 'self.a == self.b').maxCost).toBe(5); // 2 × (self + .a) + comparison
    expect(compiled(ints, '[1, 2].size() == 2').maxCost).toBe(LIST_CREATE_BASE_COST + 2);
  });

  it('charges a regex length(regex) × length(input), scaled, and grows with maxLength', () => {
    const short = compiled(strings({ maxLength: 100 }), "self.s.matches('^[a-z]+$')").maxCost;
    const long = compiled(strings({ maxLength: 1000 }), "self.s.matches('^[a-z]+$')").maxCost;
    // ceil((maxLength × 4 + 1) × 0.1) × ceil(8 × 0.25) + 2 (self.s)
    expect(short).toBe(Math.ceil(401 * 0.1) * 2 + 2);
    expect(long).toBe(Math.ceil(4001 * 0.1) * 2 + 2);
    const unbounded = compiled(strings(), "self.s.matches('^[a-z]+$')").maxCost;
    expect(unbounded).toBe(Math.ceil((3 * 1024 * 1024 - 2 + 1) * 0.1) * 2 + 2);
  });

  it('multiplies comprehension bodies by maxItems, and by the request-size worst case without it', () => {
    const ten = compiled(listOf({ maxItems: 10 }), 'self.l.all(x, x.size() < 5)').maxCost;
    const hundred = compiled(listOf({ maxItems: 100 }), 'self.l.all(x, x.size() < 5)').maxCost;
    expect(hundred - 3).toBe(10 * (ten - 3));
    const unbounded = compiled(listOf(), 'self.l.all(x, x.size() < 5)').maxCost;
    expect(unbounded).toBeGreaterThan(100_000 * 6);
  });

  it('grows with maxProperties for maps', () => {
    const map = (maxProperties?: number): SchemaNode => ({
      type: 'object',
      properties: {
        m: {
          type: 'object',
          additionalProperties: { type: 'integer' },
          ...(maxProperties !== undefined ? { maxProperties } : {}),
        },
      },
    });
    expect(compiled(map(20), 'self.m.all(k, self.m[k] > 0)').maxCost).toBeGreaterThan(
      compiled(map(2), 'self.m.all(k, self.m[k] > 0)').maxCost * 5,
    );
  });

  it('multiplies by cardinality: maxItems of ancestors, or the worst case under unbounded ones', () => {
    const rule = compiled({ type: 'string', maxLength: 10 }, 'self.size() < 5');
    expect(ruleCost(rule)).toBe(rule.maxCost);
    expect(ruleCost(rule, childCardinality(1, { type: 'array', maxItems: 7 }))).toBe(rule.maxCost * 7);
    expect(childCardinality(1, { type: 'array' })).toBe('unbounded');
    expect(ruleCost(rule, 'unbounded')).toBe(rule.maxCost * Math.floor((3 * 1024 * 1024) / 3));
  });

  it('words the rejection as the real server does', () => {
    expect(costExceededMessage('estimated rule cost', 12_000_000, 10_000_000)).toBe(
      'estimated rule cost exceeds budget by factor of 1.200000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
    expect(costExceededMessage('estimated rule cost', 25_000_000, 10_000_000)).toContain('factor of 2.5x');
  });
});

describe('runtime cost', () => {
  it('counts what was evaluated, short-circuits included', () => {
    const rule = compiled(ints, 'self.a == 1 || self.b == 2');
    const outcome = evaluateRule(rule, { self: { a: 1, b: 2 } });
    expect(outcome).toEqual({ kind: 'pass', cost: 3 });
  });

  it('halts an expression over the per-call limit and stops validation', () => {
    const rule = compiled(listOf({ maxItems: 2000 }), 'self.l.all(x, self.l.all(y, x == y || x != y))');
    const outcome = evaluateRule(rule, { self: { l: Array.from({ length: 2000 }, (_, i) => `v${i}`) } });
    expect(outcome.kind).toBe('error');
    expect(outcome.kind === 'error' && outcome.stop).toBe(true);
    expect(outcome.cost).toBeGreaterThan(PER_CALL_LIMIT);
  });

  it('halts when the per-object budget runs out, even inside an error-absorbing exists()', () => {
    // The first inner loop alone costs more than the budget; exists() must not swallow the cost error.
    const rule = compiled(listOf({ maxItems: 1000 }), "self.l.exists(x, self.l.all(y, y != 'none'))");
    const { violations, remainingBudget } = validateRules(
      [rule],
      { self: { l: Array.from({ length: 1000 }, (_, i) => `v${i}`) } },
      3000,
    );
    expect(violations.map((v) => v.message)).toEqual([OUT_OF_BUDGET]);
    expect(remainingBudget).toBe(-1);
  });
});
