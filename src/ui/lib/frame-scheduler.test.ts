// The frame scheduler: changes arriving within a frame become one render, no closer than the minimum gap.
import { describe, expect, it } from 'vitest';
import { frameScheduler, type FrameSource } from './frame-scheduler';

/** Frames and a clock that move only when the test says so. */
function manualFrames(): FrameSource & { tick(): void; advance(ms: number): void; pending(): number } {
  const waiting = new Map<number, () => void>();
  const timers = new Map<number, { at: number; callback: () => void }>();
  let next = 1;
  let time = 0;
  return {
    request(callback) {
      waiting.set(next, callback);
      return next++;
    },
    cancel(handle) {
      waiting.delete(handle);
    },
    now: () => time,
    delay(callback, ms) {
      timers.set(next, { at: time + ms, callback });
      return next++;
    },
    cancelDelay(handle) {
      timers.delete(handle);
    },
    tick() {
      time += 16;
      const due = [...waiting.values()];
      waiting.clear();
      for (const callback of due) callback();
    },
    advance(ms) {
      time += ms;
      for (const [handle, timer] of [...timers]) {
        if (timer.at > time) continue;
        timers.delete(handle);
        timer.callback();
      }
    },
    pending: () => waiting.size + timers.size,
  };
}

describe('frameScheduler', () => {
  it('folds every request before a frame into one call', () => {
    const frames = manualFrames();
    let calls = 0;
    const scheduler = frameScheduler(() => calls++, { frames });
    for (let i = 0; i < 100; i++) scheduler.schedule();
    expect(frames.pending()).toBe(1);
    expect(calls).toBe(0);
    frames.tick();
    expect(calls).toBe(1);
  });

  it('asks for a new frame once the previous call ran', () => {
    const frames = manualFrames();
    let calls = 0;
    const scheduler = frameScheduler(() => calls++, { frames });
    scheduler.schedule();
    frames.tick();
    scheduler.schedule();
    scheduler.schedule();
    frames.tick();
    expect(calls).toBe(2);
    frames.tick();
    expect(calls).toBe(2);
  });

  it('drops a pending call when cancelled', () => {
    const frames = manualFrames();
    let calls = 0;
    const scheduler = frameScheduler(() => calls++, { frames });
    scheduler.schedule();
    scheduler.cancel();
    frames.tick();
    expect(calls).toBe(0);
    scheduler.schedule();
    frames.tick();
    expect(calls).toBe(1);
  });

  it('waits out the minimum interval after a call, then still runs on a frame', () => {
    const frames = manualFrames();
    let calls = 0;
    const scheduler = frameScheduler(() => calls++, { minInterval: 100, frames });
    scheduler.schedule();
    frames.tick();
    expect(calls).toBe(1);
    for (let i = 0; i < 5; i++) {
      scheduler.schedule();
      frames.tick();
    }
    expect(calls).toBe(1);
    frames.advance(100);
    expect(calls).toBe(1);
    frames.tick();
    expect(calls).toBe(2);
  });

  it('drops a call waiting for its interval when cancelled', () => {
    const frames = manualFrames();
    let calls = 0;
    const scheduler = frameScheduler(() => calls++, { minInterval: 100, frames });
    scheduler.schedule();
    frames.tick();
    scheduler.schedule();
    scheduler.cancel();
    frames.advance(200);
    frames.tick();
    expect(calls).toBe(1);
    expect(frames.pending()).toBe(0);
  });
});
