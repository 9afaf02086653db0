/** YAML answers sort keys as go-yaml v2 does (letters by code point, non-letters first, digit runs by value). */

import { describe, expect, it } from 'vitest';
import { yamlKeyLess, yamlSorted } from './yaml-key-order';

describe('go-yaml v2 key order', () => {
  it.each([
    ['a', 'b'],
    ['a', 'ab'],
    ['a2', 'a10'],
    ['-x', 'ax'],
    ['A', 'a'],
    ['x.io/b', 'x.io/c'],
    ['a1', 'a01'],
  ])('%s sorts before %s', (a, b) => {
    expect(yamlKeyLess(a, b)).toBe(true);
    expect(yamlKeyLess(b, a)).toBe(false);
  });

  it('sorts every level, whatever the kind', () => {
    const sorted = yamlSorted({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'n', labels: { b: '1', a: '2' } },
      items: [{ z: 1, y: 2 }],
    });
    expect(JSON.stringify(sorted)).toBe(
      '{"apiVersion":"v1","items":[{"y":2,"z":1}],"kind":"ConfigMap","metadata":{"labels":{"a":"2","b":"1"},"name":"n"}}',
    );
  });
});
