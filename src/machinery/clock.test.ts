import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SandboxClock } from './clock';

describe('SandboxClock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('reads its base plus the offset, and only moves forward', () => {
    const clock = new SandboxClock();
    clock.advance(60_000);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(clock.offsetMs).toBe(60_000);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });

  it('fires timers when real time reaches them', () => {
    const clock = new SandboxClock();
    const fired: string[] = [];
    clock.setTimer(1000, () => fired.push('a'));
    vi.advanceTimersByTime(999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a']);
  });

  it('fires the timers an advance passes, in deadline order, and re-arms the rest for less real time', () => {
    const clock = new SandboxClock();
    const fired: string[] = [];
    clock.setTimer(3000, () => fired.push('late'));
    clock.setTimer(1000, () => fired.push('early'));
    clock.setTimer(10_000, () => fired.push('later'));
    clock.advance(5000);
    expect(fired).toEqual(['early', 'late']);
    vi.advanceTimersByTime(4999);
    expect(fired).toEqual(['early', 'late']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['early', 'late', 'later']);
  });

  it('cancels a timer, and tells listeners the new offset', () => {
    const clock = new SandboxClock();
    const fired: string[] = [];
    const offsets: number[] = [];
    clock.onAdvance((o) => offsets.push(o));
    const cancel = clock.setTimer(1000, () => fired.push('x'));
    cancel();
    clock.advance(2000);
    vi.advanceTimersByTime(5000);
    expect(fired).toEqual([]);
    expect(offsets).toEqual([2000]);
  });
});
