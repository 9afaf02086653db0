import { describe, expect, it } from 'vitest';
import { JsonPath } from './jsonpath';

const list = {
  kind: 'List',
  items: [
    {
      metadata: { name: 'a', labels: { 'app.kubernetes.io/name': 'x' } },
      status: { phase: 'Active', conditions: [{ type: 'Ready', status: 'True' }] },
    },
    {
      metadata: { name: 'b' },
      status: { phase: 'Terminating', conditions: [{ type: 'Ready', status: 'False' }] },
    },
  ],
};

const run = (template: string, data: unknown = list, outputJson = false) =>
  new JsonPath(template, { allowMissingKeys: true, outputJson }).execute(data);

describe("kubectl's JSONPath templates", () => {
  it.each([
    ['{.items[*].metadata.name}', 'a b'],
    ['{.items[0].metadata.name}', 'a'],
    ['{.items[-1].metadata.name}', 'b'],
    ['{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}', 'a\tActive\nb\tTerminating\n'],
    ['{.items[?(@.status.phase=="Active")].metadata.name}', 'a'],
    ["{.items[0].metadata.labels['app.kubernetes.io/name']}", ''],
    ['{.items[0].metadata.labels.app\\.kubernetes\\.io/name}', 'x'],
    ['{.items[1].status.conditions[0]}', '{"status":"False","type":"Ready"}'],
    ['{.items[*].missing}', ''],
    ['names: {.items[*].metadata.name}!', 'names: a b!'],
    ['{..phase}', 'Active Terminating'],
  ])('%s', (template, expected) => {
    expect(run(template)).toBe(expected);
  });

  it('prints JSON arrays with jsonpath-as-json', () => {
    expect(run('{.items[*].metadata.name}', list, true)).toBe('[\n    "a",\n    "b"\n]\n');
  });

  it.each([
    ['{.metadata.name}{\\n}', "unrecognized character in action: U+005C '\\'"],
    ['{.items[', 'unterminated array'],
    ['{.a', 'unclosed action'],
  ])('%s fails to parse', (template, message) => {
    expect(() => new JsonPath(template)).toThrow(message);
  });
});
