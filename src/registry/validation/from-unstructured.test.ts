/** The unstructured converter's errors for a strategic merge patch's result that does not fit the kind. */

import { describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../builtins';
import { fromUnstructuredError } from './from-unstructured';

const pod = { ref: 'api.core.v1.Pod' };
const check = (obj: unknown) => fromUnstructuredError(builtInDefinitions, pod, obj);

describe('fromUnstructuredError', () => {
  it.each<[string, unknown, string | undefined]>([
    ['a fitting pod', { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }] } }, undefined],
    ['labels patched to a string', { metadata: { labels: 'invalid' } }, 'cannot restore map from string'],
    ['containers patched to a number', { spec: { containers: 5 } }, 'cannot restore slice from int64'],
    [
      'a container patched to a string',
      { spec: { containers: ['c'] } },
      'cannot restore struct from: string',
    ],
    ['a string field given a number', { metadata: { name: 5 } }, 'cannot convert int64 to string'],
    ['a string field given a bool', { metadata: { name: true } }, 'unrecognized type: string'],
    ['an int32 field given a string', { spec: { priority: 'high' } }, 'unrecognized type: int32'],
    ['an int field given a fraction', { spec: { priority: 1.5 } }, 'cannot convert float64 to int32'],
    ['an integral float in an int field', { spec: { priority: 2.0 } }, undefined],
  ])('%s', (_name, obj, want) => {
    expect(check(obj)).toBe(want);
  });

  it('reports the first mismatch in Go field order', () => {
    // ObjectMeta's name comes before its labels.
    expect(check({ metadata: { labels: 'x', name: 5 } })).toBe('cannot convert int64 to string');
  });
});
