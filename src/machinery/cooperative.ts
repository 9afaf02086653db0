/**
 * Cooperative time slicing: one JavaScript thread serves every client, so a
 * request whose work is large (a ConfigMap of 100,000 keys) must let the
 * others run while it works, as the real server's goroutines do. Long work
 * checks, at its natural steps, whether the current turn of the event loop
 * has run longer than a slice; when it has, it waits for the next turn
 * (a macrotask), in which the host reads sockets and other requests and
 * timers run. Small requests never reach a slice's length and never wait.
 *
 * Two forms: `breathe()` between the phases of a request (an `await`), and
 * `Work<T>` — a generator that yields where it may pause — for a single
 * pass over a wide object (a copy, a comparison), driven either to the end
 * at once (`runNow`) or in slices (`runSliced`). `pauseDue()` is the cheap
 * test a generator calls in its loops.
 *
 * The turn's start is taken as the first check made in it (a timer armed
 * then marks the next turn), so time a turn spent before any check is not
 * counted; the checks are frequent enough on every long path for that to
 * matter little. A request's arrival from its host (`turnArrived`, in the
 * server's `fetch`: a task of its own) counts too, without a timer of its
 * own: most requests (a GET answered from memory) make no other check, and a
 * timer per request cost ~50 µs of a service worker's time; a check within
 * half a slice of an arrival marks nothing either (`unmarkedMs`: a small
 * write's phases arm no timer). A later check decides which turn the arrival
 * was in: provably its own while a microtask queued at the arrival has not
 * run (counted from the arrival, as before); otherwise from the
 * arrival when that was less than a slice ago (which can only end the slice
 * sooner), else from the check itself — the arrival's turn then ran a whole
 * slice with no check in it, so the check is taken to be in a later turn.
 *
 * What "the next turn" is belongs to the host (`setTurnScheduler`): by
 * default a `setTimeout(0)` task, which in a browser or service worker
 * comes after the events already queued. In Node a zero timer waits at
 * least 1 ms, idle when nothing else is due — a 100,000-key create pauses
 * some 200 times — so the Node host schedules turns with `setImmediate`,
 * which runs as soon as the loop has polled its sockets (and run its
 * timers), with no wait.
 */

/** What runs in the next turn's one task (see `inLaterTurn`), in the order queued. */
let nextTask: (() => void)[] = [];

function runNextTask(): void {
  const runs = nextTask;
  nextTask = [];
  for (const run of runs) {
    try {
      run();
    } catch (error) {
      // As if it had had its own task: reported as uncaught, and the others still run.
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

/**
 * Runs `run` in a later turn of the event loop, by the host's scheduler (work left for after an answer). Whatever
 * is queued for the next turn before it comes — the current turn's end, the work left after answers, the watch
 * fan-out — runs in one task, in the order queued: one timer instead of one each (a service worker pays each
 * timer's task ~50 µs; a create queued three). Something queued while they run waits for the turn after.
 */
export function inLaterTurn(run: () => void): void {
  nextTask.push(run);
  if (nextTask.length === 1) scheduleTurn(runNextTask);
}

/** How long one turn may run before long work lets others go (ms). */
export const sliceMs = 10;

/** Runs a function in the next turn of the host's event loop, after the host has read its sockets. */
export type TurnScheduler = (run: () => void) => void;

let scheduleTurn: TurnScheduler = (run) => setTimeout(run, 0);

/** The host's way to run a function in the next turn (see the module note); the default is `setTimeout(0)`. */
export function setTurnScheduler(schedule: TurnScheduler): void {
  scheduleTurn = schedule;
}

let turnStart = 0;
/** A check marked the current turn, and the timer that ends the mark has not fired. */
let turnMarked = false;
/** When a request arrived with no turn marked (no timer armed for it), until a timer fires. */
let arrivedAt = Number.NEGATIVE_INFINITY;
/** True from an arrival until a microtask queued then runs: a check meanwhile is in the arrival's own task. */
let arrivalTaskRunning = false;

function endTurn(): void {
  turnMarked = false;
  // A timer ran: the loop took other tasks since any arrival recorded before it.
  arrivedAt = Number.NEGATIVE_INFINITY;
}

function endArrivalTask(): void {
  arrivalTaskRunning = false;
}

/** Marks the start of the current turn at the first check made in it. */
function markTurn(): void {
  if (turnMarked) return;
  turnMarked = true;
  const now = performance.now();
  turnStart = arrivalTaskRunning || now - arrivedAt < sliceMs ? Math.min(arrivedAt, now) : now;
  inLaterTurn(endTurn);
}

/**
 * A request arrived: its turn counts from now for long work's slices, as a check would count it, but no timer
 * is armed (see the module note): a request that makes no other check costs a clock read and a microtask.
 */
export function turnArrived(): void {
  // A second arrival in the same task keeps the first's time: the turn began no later than that.
  if (turnMarked || arrivalTaskRunning) return;
  arrivedAt = performance.now();
  arrivalTaskRunning = true;
  queueMicrotask(endArrivalTask);
}

/**
 * Within this much of a request's arrival a check neither marks the turn nor arms the timer that ends the mark:
 * the turn it is in began no earlier than the arrival (the arrival's own, counted from the arrival as a mark would
 * count it, or a later one), so its slice is not spent. This holds because only a host's arrival is one, at the
 * start of its own task: an in-process request made in the middle of a long task does not move `arrivedAt`. A small request (a create: ~1–3 ms of work in all) then
 * makes every check of its phases without a timer task of its own; long work marks its turn at its first check
 * past this, still inside its first slice when its checks are less than this far apart.
 */
const unmarkedMs = sliceMs / 2;

/** Whether the current turn has run past its slice. */
export function sliceSpent(): boolean {
  if (!turnMarked && performance.now() - arrivedAt < unmarkedMs) return false;
  markTurn();
  return performance.now() - turnStart >= sliceMs;
}

/** Waits for the next turn of the event loop: sockets, timers and other requests run in between. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    scheduleTurn(() => {
      turnMarked = true;
      turnStart = performance.now();
      arrivedAt = Number.NEGATIVE_INFINITY;
      inLaterTurn(endTurn);
      resolve();
    }),
  );
}

/**
 * Between the phases of long work: waits for the next turn when this one has run past its slice. Most calls
 * (a create makes several) find the slice not spent: they get one settled promise, which an `await` resumes
 * from in the same one microtask as from an `async` function's own settled promise, with nothing made per call.
 */
export function breathe(): Promise<void> {
  return sliceSpent() ? breatheAfterTurn() : settled;
}

const settled: Promise<void> = Promise.resolve();

async function breatheAfterTurn(): Promise<void> {
  await nextTurn();
}

/** A pass that may pause: a generator that yields (nothing) where it may be suspended, and returns its result. */
export type Work<T> = Generator<void, T, void>;

let steps = 0;

/**
 * For loops inside `Work`: true every so many steps once the turn's slice is spent (the clock is read
 * once per 256 steps), meaning "yield now".
 */
export function pauseDue(): boolean {
  if ((++steps & 255) !== 0) return false;
  return sliceSpent();
}

/** Runs the work to its end at once (small inputs, synchronous callers). */
export function runNow<T>(work: Work<T>): T {
  for (;;) {
    const r = work.next();
    if (r.done === true) return r.value;
  }
}

/** Runs the work, waiting for the next turn wherever it pauses. */
export async function runSliced<T>(work: Work<T>): Promise<T> {
  for (;;) {
    const r = work.next();
    if (r.done === true) return r.value;
    await nextTurn();
  }
}
