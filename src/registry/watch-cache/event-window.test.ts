import { describe, expect, it } from 'vitest';
import type { ChangeRecord } from '../../storage/types';
import { EventWindow } from './event-window';

const change = (revision: number): ChangeRecord => ({
  revision,
  type: 'ADDED',
  key: `/core/configmaps/default/cm-${revision}`,
  object: { metadata: { name: `cm-${revision}`, resourceVersion: String(revision) } },
});

function filled(window: EventWindow, from: number, count: number, at: number): void {
  for (let r = from; r < from + count; r++) window.add(change(r), at);
}

describe('EventWindow', () => {
  it('serves every change after its start until it evicts one', () => {
    const w = new EventWindow(10);
    filled(w, 11, 5, 0);
    expect(w.oldestStart()).toBe(10);
    expect(w.since(10)?.map((c) => c.revision)).toEqual([11, 12, 13, 14, 15]);
    expect(w.since(13)?.map((c) => c.revision)).toEqual([14, 15]);
    expect(w.since(9)).toBeUndefined();
  });

  it('ignores changes at or before its start', () => {
    const w = new EventWindow(10);
    w.add(change(10), 0);
    expect(w.size).toBe(0);
  });

  it('doubles while full of fresh events, up to the upper bound', () => {
    const w = new EventWindow(0, { lowerBoundCapacity: 4, upperBoundCapacity: 16, eventFreshMs: 1000 });
    filled(w, 1, 40, 0);
    expect(w.capacity).toBe(16);
    expect(w.size).toBe(16);
    expect(w.oldestStart()).toBe(24);
    expect(w.since(23)).toBeUndefined();
  });

  it('evicts instead of growing when its oldest event is past the fresh duration', () => {
    const w = new EventWindow(0, { lowerBoundCapacity: 4, upperBoundCapacity: 16, eventFreshMs: 1000 });
    filled(w, 1, 4, 0);
    w.add(change(5), 1500);
    expect(w.capacity).toBe(4);
    expect(w.oldestStart()).toBe(1);
    expect(w.since(0)).toBeUndefined();
    expect(w.since(1)?.map((c) => c.revision)).toEqual([2, 3, 4, 5]);
  });

  it('halves when even its newest quarter has aged, keeping the newest events', () => {
    const w = new EventWindow(0, { lowerBoundCapacity: 4, upperBoundCapacity: 16, eventFreshMs: 1000 });
    filled(w, 1, 16, 0);
    expect(w.capacity).toBe(16);
    w.add(change(17), 5000);
    expect(w.capacity).toBe(8);
    expect(w.since(9)?.map((c) => c.revision)).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    expect(w.since(8)).toBeUndefined();
  });

  it('keeps memory to the window over a long history', () => {
    const w = new EventWindow(0, { lowerBoundCapacity: 4, upperBoundCapacity: 4, eventFreshMs: 1000 });
    filled(w, 1, 10_000, 0);
    expect(w.size).toBe(4);
    expect((w as unknown as { events: unknown[] }).events.length).toBeLessThanOrEqual(2 * 64 + 4);
  });
});
