import { describe, expect, it } from 'vitest';
import { toYaml, yamlKeyLess } from './yaml';

describe('YAML as kubectl (yaml.v2) prints it', () => {
  it('sorts keys, keeps sequences at their key and quotes what would read as another type', () => {
    expect(
      toYaml({
        b: ['x', { n: 1, m: true }],
        a: { '10': 'y', '9': null, z: '' },
        c: '123',
        d: 'yes',
        e: '2024-01-02T03:04:05Z',
        f: [],
        g: {},
      }),
    ).toBe(
      [
        'a:',
        '  "9": null',
        '  "10": "y"',
        '  z: ""',
        'b:',
        '- x',
        '- m: true',
        '  "n": 1',
        'c: "123"',
        'd: "yes"',
        'e: "2024-01-02T03:04:05Z"',
        'f: []',
        'g: {}',
        '',
      ].join('\n'),
    );
  });

  it('writes multi-line strings as literal blocks with their chomping indicator', () => {
    expect(toYaml({ a: 'x\ny\n', b: 'x\ny', c: 'x\n\n', d: ' lead\n' })).toBe(
      'a: |\n  x\n  y\nb: |-\n  x\n  y\nc: |+\n  x\n\nd: |2\n   lead\n',
    );
  });

  it('quotes indicators and folds long plain scalars after column 80', () => {
    expect(toYaml({ a: '*star', b: 'key: value', c: "it's", d: '- item', e: 'tab\there' })).toBe(
      "a: '*star'\nb: 'key: value'\nc: it's\nd: '- item'\ne: \"tab\\there\"\n",
    );
    const long = 'word '.repeat(30).trim();
    const out = toYaml({ metadata: { annotations: { description: long } } });
    expect(out.split('\n')[2]?.length).toBeLessThanOrEqual(86);
    expect(out).toContain('\n      word');
  });

  it('orders keys as yaml.v2 does: non-letters first, digit runs by value', () => {
    expect(['b', 'A', '_x', 'a10', 'a9', 'a.b', 'ab'].sort(yamlKeyLess)).toEqual([
      '_x',
      'A',
      'a.b',
      'a9',
      'a10',
      'ab',
      'b',
    ]);
  });
});
