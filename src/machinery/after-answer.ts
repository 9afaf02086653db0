/**
 * Work a request leaves for after its answer: recording what happened (the
 * audit events' emission, the request metrics) changes nothing the client is
 * told, so it need not delay the answer. Each piece is queued with the
 * values it records already taken (times, codes, durations) and runs in a
 * later turn of the event loop, once the answer has been handed to the host;
 * the queue is one FIFO, so pieces run in the order they were queued (an
 * audit event's stages, and the requests' events, keep their order). Readers
 * of what the pieces record (the audit log, the metrics exposition) call
 * `flushAfterAnswer()` first, so that nothing observed depends on whether the
 * later turn came yet.
 */

import { inLaterTurn } from './cooperative';

const queue: (() => void)[] = [];
let scheduled = false;
let flushing = false;

/** Queues `work` (which must already hold every value it records) to run after the current answer. */
export function afterAnswer(work: () => void): void {
  queue.push(work);
  if (scheduled) return;
  scheduled = true;
  inLaterTurn(() => {
    scheduled = false;
    flushAfterAnswer();
  });
}

/** Runs every queued piece now, in order (a reader of what they record calls this first). */
export function flushAfterAnswer(): void {
  // A piece that reads (an audit log listener listing the log) must not run the queue from the middle.
  if (flushing) return;
  flushing = true;
  try {
    // Pieces queued while flushing run in this flush, after the ones before them.
    for (let i = 0; i < queue.length; i++) {
      try {
        queue[i]?.();
      } catch (error) {
        console.error('work after an answer failed', error);
      }
    }
  } finally {
    queue.length = 0;
    flushing = false;
  }
}
