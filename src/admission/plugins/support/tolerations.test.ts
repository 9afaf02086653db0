/** Toleration merging and whitelisting as the real `pkg/util/tolerations` behaves. */

import { describe, expect, it } from 'vitest';
import {
  addOrUpdateToleration,
  isSuperset,
  mergeTolerations,
  verifyAgainstWhitelist,
  type Toleration,
} from './tolerations';

const t = (x: Toleration): Toleration => x;

describe('isSuperset', () => {
  const cases: { name: string; ss: Toleration; t: Toleration; want: boolean }[] = [
    {
      name: 'equal',
      ss: t({ key: 'a', operator: 'Exists' }),
      t: t({ key: 'a', operator: 'Exists' }),
      want: true,
    },
    {
      name: 'empty key Exists covers any key',
      ss: t({ operator: 'Exists' }),
      t: t({ key: 'a', operator: 'Equal', value: 'v' }),
      want: true,
    },
    {
      name: 'other key',
      ss: t({ key: 'b', operator: 'Exists' }),
      t: t({ key: 'a', operator: 'Exists' }),
      want: false,
    },
    {
      name: 'empty effect covers any effect',
      ss: t({ key: 'a', operator: 'Exists' }),
      t: t({ key: 'a', operator: 'Exists', effect: 'NoSchedule' }),
      want: true,
    },
    {
      name: 'other effect',
      ss: t({ key: 'a', operator: 'Exists', effect: 'NoExecute' }),
      t: t({ key: 'a', operator: 'Exists', effect: 'NoSchedule' }),
      want: false,
    },
    {
      name: 'shorter NoExecute seconds do not cover longer',
      ss: t({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }),
      t: t({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }),
      want: false,
    },
    {
      name: 'bounded NoExecute does not cover unbounded',
      ss: t({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }),
      t: t({ key: 'a', operator: 'Exists', effect: 'NoExecute' }),
      want: false,
    },
    {
      name: 'Equal covers Equal same value',
      ss: t({ key: 'a', operator: 'Equal', value: 'v' }),
      t: t({ key: 'a', operator: 'Equal', value: 'v', effect: 'NoSchedule' }),
      want: true,
    },
    {
      name: 'Equal does not cover Exists',
      ss: t({ key: 'a', operator: 'Equal', value: 'v' }),
      t: t({ key: 'a', operator: 'Exists' }),
      want: false,
    },
    {
      name: 'Equal does not cover an empty operator (as upstream)',
      ss: t({ key: 'a', operator: 'Equal', value: 'v' }),
      t: t({ key: 'a', value: 'v', effect: 'NoSchedule' }),
      want: false,
    },
  ];
  it.each(cases)('$name', (c) => expect(isSuperset(c.ss, c.t)).toBe(c.want));
});

describe('mergeTolerations', () => {
  it('keeps only the wider of two tolerations', () => {
    const narrow = t({ key: 'a', operator: 'Equal', value: 'v', effect: 'NoSchedule' });
    const wide = t({ key: 'a', operator: 'Exists' });
    expect(mergeTolerations([narrow], [wide])).toEqual([wide]);
    expect(mergeTolerations([wide], [narrow])).toEqual([wide]);
  });
  it('keeps the first of equal tolerations and unrelated ones in order', () => {
    const a = t({ key: 'a', operator: 'Exists' });
    const b = t({ key: 'b', operator: 'Exists' });
    expect(mergeTolerations([a, b], [{ ...a }])).toEqual([a, b]);
  });
  it('a catch-all swallows everything', () => {
    expect(mergeTolerations([{ key: 'x', operator: 'Exists' }], [{ operator: 'Exists' }])).toEqual([
      { operator: 'Exists' },
    ]);
  });
});

describe('verifyAgainstWhitelist', () => {
  const whitelist = [t({ key: 'dedicated', operator: 'Exists' })];
  it('admits covered tolerations and anything against an empty whitelist', () => {
    expect(verifyAgainstWhitelist([{ key: 'dedicated', operator: 'Equal', value: 'x' }], whitelist)).toBe(
      true,
    );
    expect(verifyAgainstWhitelist([{ key: 'gpu', operator: 'Exists' }], [])).toBe(true);
  });
  it('refuses an uncovered toleration', () => {
    expect(verifyAgainstWhitelist([{ key: 'gpu', operator: 'Exists' }], whitelist)).toBe(false);
  });
});

describe('addOrUpdateToleration', () => {
  it('adds, leaves an identical one alone, replaces one with the same identity', () => {
    const gpu = t({ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' });
    expect(addOrUpdateToleration([], gpu)).toEqual([gpu]);
    expect(addOrUpdateToleration([gpu], { ...gpu })).toBeUndefined();
    const other = t({ key: 'x', operator: 'Exists' });
    expect(addOrUpdateToleration([other, { ...gpu, tolerationSeconds: 5 }], gpu)).toEqual([other, gpu]);
  });
});
