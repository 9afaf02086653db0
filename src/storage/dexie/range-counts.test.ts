// A collection's total moves only with commits that follow its revision, is used only at its own revision, and
// is kept only while enabled.
import { describe, expect, it } from 'vitest';
import type { ChangeRecord, ChangeType } from '../types';
import { RangeCounts } from './range-counts';

const change = (revision: number, type: ChangeType, key: string): ChangeRecord => ({
  revision,
  type,
  key,
  object: { metadata: { name: key } },
});

function enabled(): RangeCounts {
  const counts = new RangeCounts();
  counts.setEnabled(true);
  return counts;
}

describe('range counts', () => {
  it('adds creates and takes deletes under the prefix, revision by revision', () => {
    const counts = enabled();
    counts.learn('/core/configmaps/a/', 10, 5);
    counts.apply(change(11, 'ADDED', '/core/configmaps/a/x'));
    counts.apply(change(12, 'ADDED', '/core/configmaps/b/x'));
    counts.apply(change(13, 'MODIFIED', '/core/configmaps/a/x'));
    counts.apply(change(14, 'DELETED', '/core/configmaps/a/y'));
    expect(counts.total('/core/configmaps/a/', 14)).toBe(5);
    expect(counts.total('/core/configmaps/a/', 13)).toBeUndefined();
    counts.apply(change(15, 'ADDED', '/core/configmaps/a/z'));
    expect(counts.total('/core/configmaps/a/', 15)).toBe(6);
  });

  it('skips a change the count already saw and drops the total at a gap', () => {
    const counts = enabled();
    counts.learn('/p/', 20, 3);
    counts.apply(change(20, 'ADDED', '/p/seen'));
    expect(counts.total('/p/', 20)).toBe(3);
    counts.apply(change(22, 'ADDED', '/p/after-a-gap'));
    expect(counts.total('/p/', 22)).toBeUndefined();
    expect(counts.total('/p/', 20)).toBeUndefined();
  });

  it('does not go back to an older count', () => {
    const counts = enabled();
    counts.learn('/p/', 30, 7);
    counts.learn('/p/', 29, 6);
    expect(counts.total('/p/', 30)).toBe(7);
  });

  it('keeps nothing while disabled, and forgets everything when turned or cleared', () => {
    const counts = new RangeCounts();
    counts.learn('/p/', 1, 1);
    expect(counts.total('/p/', 1)).toBeUndefined();
    counts.setEnabled(true);
    counts.learn('/p/', 1, 1);
    counts.clear();
    expect(counts.total('/p/', 1)).toBeUndefined();
    counts.learn('/p/', 1, 1);
    counts.setEnabled(false);
    expect(counts.total('/p/', 1)).toBeUndefined();
  });
});
