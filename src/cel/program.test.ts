import { describe, expect, it } from 'vitest';
import { celLibrary } from './engine';
import { CostTracker, withTracker } from './cost';
import { baseEnvironment, deriveEnvironment } from './env';
import { compileExpression, isCompileError, type CompiledExpression } from './program';

// The unit tests call the synchronous core directly; the server loads the library at its entry points.
await celLibrary.load();

const env = deriveEnvironment(baseEnvironment(), (engine) => engine.registerVariable('x', 'dyn'));

function run(source: string, x: unknown = null): unknown {
  const compiled = compileExpression(env, source);
  if (isCompileError(compiled)) throw new Error(compiled.message);
  return withTracker(new CostTracker(1e6, 'per-call'), () => (compiled as CompiledExpression).program({ x }));
}

function error(source: string): string {
  const compiled = compileExpression(env, source);
  return isCompileError(compiled) ? compiled.message : 'compiled';
}

describe('compiling expressions', () => {
  it('reports parse and type errors with line, column and caret, cel-go style', () => {
    expect(error('1 +')).toBe('ERROR: <input>:1:4: Syntax error: Unexpected token: EOF\n | 1 +\n | ...^');
    expect(error("x == 1 &&\n 'a' + 1 == 'a1'")).toContain(
      "ERROR: <input>:2:2: found no matching overload for '_+_' applied to '(string, int)'",
    );
    expect(error('nope')).toContain("undeclared reference to 'nope' (in container '')");
  });

  it('offers only what Kubernetes v1.27 offers', () => {
    expect(error("b'a'.hex() == '61'")).toContain("undeclared reference to 'hex'");
    expect(error('cel.bind(a, 1, a == 1)')).toContain("undeclared reference to 'cel'");
  });

  it('checks constant regular expressions at compile time', () => {
    expect(error("'a'.matches('(')")).toContain('program instantiation failed: error parsing regexp');
  });
});

describe('evaluation fixes over the engine', () => {
  it('reads bytes literals as UTF-8', () => {
    expect(run("b'ÿ' == b'\\303\\277'")).toBe(true);
  });

  it('has() works on any map expression', () => {
    expect(run("has({'a': 1}.a) && !has({'a': 1}.b)")).toBe(true);
    expect(run('has(x.a)', { a: 1n })).toBe(true);
  });

  it('numbers compare across types when dynamic', () => {
    expect(run('x == 1.0 && x < 1.5 && dyn(1u) == x', 1n)).toBe(true);
    expect(run('x in [1.0, 2.0]', 2n)).toBe(true);
  });

  it('overflow is an error: negation, division, conversion', () => {
    expect(() => run('-x', -9223372036854775808n)).toThrow(/overflow/);
    expect(() => run('x / -1', -9223372036854775808n)).toThrow(/overflow/);
    expect(() => run('int(9223372036854775807.0)')).toThrow(/overflow/);
  });

  it('matches uses RE2, never JavaScript regular expressions', () => {
    expect(run("'aaa'.matches('^a{2,}$') && matches('ab', 'b$')")).toBe(true);
    expect(() => run("x.matches('(?<=a)b')", 'ab')).toThrow(/error parsing regexp/);
  });

  it('durations and timestamps keep nanoseconds and support duration + timestamp', () => {
    expect(run("timestamp('2024-01-01T00:00:00.000000001Z') > timestamp('2024-01-01T00:00:00Z')")).toBe(true);
    expect(
      run("duration('1s') + timestamp('2024-01-01T00:00:00Z') == timestamp('2024-01-01T00:00:01Z')"),
    ).toBe(true);
    expect(run("string(timestamp('2024-01-01T00:00:00.5Z')) == '2024-01-01T00:00:00.5Z'")).toBe(true);
  });

  it('&& and || absorb an error when the other side decides', () => {
    expect(run('x.a == 1 || true', {})).toBe(true);
    expect(run('false && x.a == 1', {})).toBe(false);
    expect(() => run('x.a == 1 && x.b == 1', {})).toThrow(/No such key: a/);
  });
});
