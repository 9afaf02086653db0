import { describe, expect, it } from 'vitest';
import { afterAnswer, answering, flushAfterAnswer } from './after-answer';
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

describe('work after a host answer', () => {
  it('waits for the answer to be handed over instead of a turn of its own, then runs in order', async () => {
    const ran: string[] = [];
    const handedOver = answering();
    afterAnswer(() => ran.push('a'));
    afterAnswer(() => ran.push('b'));
    await nextTurn();
    expect(ran).toEqual([]);
    handedOver();
    expect(ran).toEqual(['a', 'b']);
    // Once only: a second call neither runs nor counts anything.
    handedOver();
    afterAnswer(() => ran.push('c'));
    await nextTurn();
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('still runs for a reader meanwhile, and takes a turn once the queue is long', async () => {
    const ran: number[] = [];
    const handedOver = answering();
    try {
      afterAnswer(() => ran.push(0));
      flushAfterAnswer();
      expect(ran).toEqual([0]);
      for (let i = 1; i <= 300; i++) afterAnswer(() => ran.push(i));
      await nextTurn();
      expect(ran).toHaveLength(301);
    } finally {
      handedOver();
    }
  });
});
