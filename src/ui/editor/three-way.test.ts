/** The editor's three-way merge: one-sided changes win, the stored resourceVersion is taken, clashes are reported. */

import { describe, expect, it } from 'vitest';
import { threeWayMerge } from './three-way';

const cm = (rv: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'x', resourceVersion: rv },
  data,
});

describe('threeWayMerge', () => {
  it('re-applies my change onto theirs and takes their resourceVersion', () => {
    const merged = threeWayMerge(cm('5', { a: '1' }), cm('5', { a: '2' }), cm('7', { a: '1', b: 'x' }));
    expect(merged.object).toEqual(cm('7', { a: '2', b: 'x' }));
    expect(merged.conflicts).toEqual([]);
  });

  it('keeps mine where both changed a field and reports it', () => {
    const merged = threeWayMerge(cm('5', { a: '1' }), cm('5', { a: '2' }), cm('7', { a: '3' }));
    expect(merged.object.data).toEqual({ a: '2' });
    expect(merged.conflicts).toEqual(['.data.a']);
  });

  it('deletes what I deleted and keeps what they added', () => {
    const merged = threeWayMerge(
      cm('5', { a: '1', b: '2' }),
      cm('5', { a: '1' }),
      cm('6', { a: '1', b: '2', c: '3' }),
    );
    expect(merged.object.data).toEqual({ a: '1', c: '3' });
  });

  it('without a base, sends mine on the stored version', () => {
    const merged = threeWayMerge(undefined, cm('1', { a: '2' }), cm('9', { a: '1' }));
    expect(merged.object).toEqual(cm('9', { a: '2' }));
  });
});
