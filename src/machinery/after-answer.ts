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
 *
 * A host that knows when it has handed an answer over (the service worker:
 * once `respondWith`'s promise settled) says so (`answering`): while one of
 * its answers is under way the queue waits for the end of one instead of a
 * turn of its own, and runs right after that answer left. No timer is armed
 * per request (in a service worker its task cost as much as the work), and
 * the work never runs between an answer being made and being handed over.
 */

import { inLaterTurn } from './cooperative';

const queue: (() => void)[] = [];
let scheduled = false;
let flushing = false;
/** The host's answers under way (`answering`), each of which runs the queue once handed over. */
let hostAnswers = 0;
/**
 * Past this many pieces the queue takes a turn of its own even while a host's answer is under way: one
 * answer that takes long (a request waiting for the server's readiness) holds no unbounded queue.
 */
const waitBound = 256;

/** Queues `work` (which must already hold every value it records) to run after the current answer. */
export function afterAnswer(work: () => void): void {
  queue.push(work);
  if (scheduled || (hostAnswers > 0 && queue.length < waitBound)) return;
  scheduled = true;
  inLaterTurn(() => {
    scheduled = false;
    flushAfterAnswer();
  });
}

/**
 * A host begins an answer it will hand over itself; it calls the returned function (once, more calls do
 * nothing) when the answer has been handed over, or has failed, which runs the queue. Meanwhile work queued
 * after any answer waits for that call rather than for a turn of its own (see the module note).
 */
export function answering(): () => void {
  hostAnswers++;
  let open = true;
  return () => {
    if (!open) return;
    open = false;
    hostAnswers--;
    flushAfterAnswer();
  };
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
