// The line diff keeps unchanged lines in order and marks the rest.
import { describe, expect, it } from 'vitest';
import { diffLines, withContext } from './line-diff';

describe('diffLines', () => {
  it('finds the changed lines between two versions', () => {
    const lines = diffLines('a\nb\nc\nd\n', 'a\nx\nc\nd\ne\n');
    expect(lines).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
      { kind: 'same', text: 'd' },
      { kind: 'added', text: 'e' },
    ]);
    expect(diffLines('', 'a\n')).toEqual([{ kind: 'added', text: 'a' }]);
    expect(diffLines('same\n', 'same\n')).toEqual([{ kind: 'same', text: 'same' }]);
  });

  it('folds long unchanged stretches', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l10', 'changed');
    const shown = withContext(diffLines(before, after), 1);
    expect(shown).toEqual([
      { kind: 'gap', count: 9 },
      { kind: 'same', text: 'l9' },
      { kind: 'removed', text: 'l10' },
      { kind: 'added', text: 'changed' },
      { kind: 'same', text: 'l11' },
      { kind: 'gap', count: 8 },
    ]);
  });
});
