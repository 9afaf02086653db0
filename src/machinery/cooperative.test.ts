// Which turn a check counts from, with the clock and the timers in the test's hands: a request's arrival arms
// no timer; a check in the arrival's own task counts from the arrival (as a check made there would), a check
// less than a slice after it too (ending the slice sooner, never later), and a check a slice or more after it,
// once the arrival's task is over, from itself; a timer that ran ends the turn.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type * as Cooperative from './cooperative';

// Each test loads the module afresh: the turn it tracks is module state.
let coop: typeof Cooperative;
let clock = 0;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  clock = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  vi.resetModules();
  coop = await import('./cooperative');
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Lets the microtasks queued so far run (the arrival's task is over), without running a timer. */
const endOfTask = async () => {
  for (let i = 0; i < 3; i++) await Promise.resolve();
};

it('an arrival arms no timer', () => {
  coop.turnArrived();
  expect(vi.getTimerCount()).toBe(0);
});

it("a check in the arrival's own task counts from the arrival", () => {
  coop.turnArrived();
  clock += coop.sliceMs;
  expect(coop.sliceSpent()).toBe(true);
});

it('a check less than a slice after the arrival, in a later task, counts from the arrival', async () => {
  coop.turnArrived();
  await endOfTask();
  clock += 6;
  expect(coop.sliceSpent()).toBe(false);
  clock += coop.sliceMs - 6;
  expect(coop.sliceSpent()).toBe(true);
});

it('a check a slice or more after the arrival, in a later task, counts from itself', async () => {
  coop.turnArrived();
  await endOfTask();
  clock += 15;
  expect(coop.sliceSpent()).toBe(false);
  clock += coop.sliceMs;
  expect(coop.sliceSpent()).toBe(true);
});

it('checks within half a slice of an arrival arm no timer; a later one marks the turn from the arrival', async () => {
  coop.turnArrived();
  clock += 1;
  expect(coop.sliceSpent()).toBe(false);
  await endOfTask();
  clock += 3;
  expect(coop.sliceSpent()).toBe(false);
  expect(vi.getTimerCount()).toBe(0);
  // Past half a slice: marked (a timer to end the mark), counted from the arrival.
  clock += 2;
  expect(coop.sliceSpent()).toBe(false);
  expect(vi.getTimerCount()).toBe(1);
  clock += coop.sliceMs - 6;
  expect(coop.sliceSpent()).toBe(true);
});

it('a long first turn is spent at a slice from the arrival when its checks are frequent', () => {
  coop.turnArrived();
  let spentAt = 0;
  for (let step = 1; step <= 30 && spentAt === 0; step++) {
    clock += 1;
    if (coop.sliceSpent()) spentAt = step;
  }
  expect(spentAt).toBe(coop.sliceMs);
});

it('an arrival after a check of the same turn does not move its start', () => {
  expect(coop.sliceSpent()).toBe(false);
  clock += 5;
  coop.turnArrived();
  clock += coop.sliceMs - 5;
  expect(coop.sliceSpent()).toBe(true);
});

it('a timer that ran ends the turn: the next check starts another', async () => {
  coop.turnArrived();
  clock += 3;
  expect(coop.sliceSpent()).toBe(false);
  vi.runAllTimers();
  await endOfTask();
  clock += coop.sliceMs;
  expect(coop.sliceSpent()).toBe(false);
});

it("the host's turn scheduler runs the next turn and ends the marked one", async () => {
  const queued: (() => void)[] = [];
  coop.setTurnScheduler((run) => queued.push(run));
  clock += 1;
  expect(coop.sliceSpent()).toBe(false);
  // The check marked the turn: its end is the host's to run, not a timer's.
  expect(queued).toHaveLength(1);
  expect(vi.getTimerCount()).toBe(0);
  clock += coop.sliceMs;
  let resumed = false;
  void coop.nextTurn().then(() => (resumed = true));
  expect(queued).toHaveLength(2);
  for (const run of queued.splice(0)) run();
  await endOfTask();
  expect(resumed).toBe(true);
  // The resumed work starts a fresh slice.
  expect(coop.sliceSpent()).toBe(false);
});

it('what is queued for the next turn runs in one task, in order; what it queues waits for the turn after', async () => {
  const queued: (() => void)[] = [];
  coop.setTurnScheduler((run) => queued.push(run));
  const ran: string[] = [];
  clock += 1;
  coop.sliceSpent(); // marks the turn: its end is queued first
  coop.inLaterTurn(() => ran.push('a'));
  coop.inLaterTurn(() => {
    ran.push('b');
    coop.inLaterTurn(() => ran.push('d'));
  });
  coop.inLaterTurn(() => ran.push('c'));
  expect(queued).toHaveLength(1);
  queued.shift()?.();
  expect(ran).toEqual(['a', 'b', 'c']);
  // The turn ended in that task: the next check marks a new one, queued with 'd' for the turn after.
  clock += coop.sliceMs;
  expect(coop.sliceSpent()).toBe(false);
  expect(queued).toHaveLength(1);
  queued.shift()?.();
  expect(ran).toEqual(['a', 'b', 'c', 'd']);
});

it('a piece that throws in the shared task is reported as uncaught, and the others still run', async () => {
  const queued: (() => void)[] = [];
  coop.setTurnScheduler((run) => queued.push(run));
  const ran: string[] = [];
  const thrown: unknown[] = [];
  const realQueueMicrotask = globalThis.queueMicrotask;
  vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((callback) =>
    realQueueMicrotask(() => {
      try {
        callback();
      } catch (error) {
        thrown.push(error);
      }
    }),
  );
  coop.inLaterTurn(() => {
    throw new Error('boom');
  });
  coop.inLaterTurn(() => ran.push('after'));
  queued.shift()?.();
  await endOfTask();
  expect(ran).toEqual(['after']);
  expect(thrown).toEqual([new Error('boom')]);
});

it('a breathe with the slice not spent resumes its caller in the microtask an async function returning at once would', async () => {
  // What runs between a request's phases must not move: `breathe` answers with one settled promise where it
  // used to be an `async` function that returned at once.
  const returnsAtOnce = async (): Promise<void> => {};
  for (const breatheFirst of [true, false]) {
    coop.turnArrived();
    const order: string[] = [];
    const viaBreathe = async () => {
      await coop.breathe();
      order.push('breathe');
    };
    const viaAsync = async () => {
      await returnsAtOnce();
      order.push('async');
    };
    await Promise.all(breatheFirst ? [viaBreathe(), viaAsync()] : [viaAsync(), viaBreathe()]);
    expect(order).toEqual(breatheFirst ? ['breathe', 'async'] : ['async', 'breathe']);
  }
  expect(vi.getTimerCount()).toBe(0);
});
