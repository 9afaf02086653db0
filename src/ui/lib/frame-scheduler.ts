/**
 * At most one call per animation frame, and optionally no more often than
 * a minimum interval: a live view asks for a render on every watch event,
 * and a burst of events costs one render instead of one each — under a
 * sustained stream, a few renders a second rather than sixty, since a list
 * changing faster than that cannot be read anyway. The frame and clock
 * source is injectable so that tests drive time by hand; a hidden tab has
 * no frames, so nothing runs there until it is shown again (one call then
 * catches up on everything).
 */

export interface FrameSource {
  request(callback: () => void): number;
  cancel(handle: number): void;
  now(): number;
  delay(callback: () => void, ms: number): number;
  cancelDelay(handle: number): void;
}

export interface FrameScheduler {
  /** Asks for the callback on the next frame; further asks before it runs are folded into it. */
  schedule(): void;
  /** Drops a pending call (on unmount). */
  cancel(): void;
}

/** The page's frame and timer functions, named through globalThis: the tests type-check this file without the DOM. */
interface PageFrames {
  requestAnimationFrame(callback: () => void): number;
  cancelAnimationFrame(handle: number): void;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number): void;
}

const page = globalThis as unknown as PageFrames;
const animationFrames: FrameSource = {
  request: (callback) => page.requestAnimationFrame(callback),
  cancel: (handle) => page.cancelAnimationFrame(handle),
  now: () => performance.now(),
  delay: (callback, ms) => page.setTimeout(callback, ms),
  cancelDelay: (handle) => page.clearTimeout(handle),
};

export function frameScheduler(
  callback: () => void,
  options: { minInterval?: number; frames?: FrameSource } = {},
): FrameScheduler {
  const { minInterval = 0, frames = animationFrames } = options;
  let handle: number | undefined;
  let timer: number | undefined;
  let last = -Infinity;
  const request = () => {
    handle = frames.request(() => {
      handle = undefined;
      last = frames.now();
      callback();
    });
  };
  return {
    schedule() {
      if (handle !== undefined || timer !== undefined) return;
      const wait = last + minInterval - frames.now();
      if (wait <= 0) request();
      else
        timer = frames.delay(() => {
          timer = undefined;
          request();
        }, wait);
    },
    cancel() {
      if (handle !== undefined) frames.cancel(handle);
      if (timer !== undefined) frames.cancelDelay(timer);
      handle = undefined;
      timer = undefined;
    },
  };
}
