import { describe, expect, it } from 'vitest';
import { afterAnswer, flushAfterAnswer } from './after-answer';
import { nextTurn } from './cooperative';

describe('work after an answer', () => {
  it('runs in a later turn, in the order it was queued, pieces queued meanwhile last', async () => {
    const ran: string[] = [];
    afterAnswer(() => {
      ran.push('a');
      afterAnswer(() => ran.push('c'));
    });
    afterAnswer(() => ran.push('b'));
    await Promise.resolve();
    expect(ran).toEqual([]);
    await nextTurn();
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('runs at once for a reader, once, and a failing piece does not stop the others', async () => {
    const ran: string[] = [];
    const errors = console.error;
    console.error = () => undefined;
    try {
      afterAnswer(() => {
        throw new Error('broken');
      });
      afterAnswer(() => {
        ran.push('x');
        // A reader inside a piece does not run the queue from the middle.
        flushAfterAnswer();
      });
      afterAnswer(() => ran.push('y'));
      flushAfterAnswer();
      expect(ran).toEqual(['x', 'y']);
      await nextTurn();
      expect(ran).toEqual(['x', 'y']);
    } finally {
      console.error = errors;
    }
  });
});
