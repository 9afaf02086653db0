import { describe, expect, it } from 'vitest';
import { RangeAllocator } from './range-allocator';

describe('RangeAllocator claims', () => {
  it.each<{ what: string; steps: (r: RangeAllocator) => void; holder: string | undefined }>([
    {
      what: 'a failed write frees the slot it took',
      steps: (r) => (r.allocate(3, 'a'), r.unclaim(3, 'a')),
      holder: undefined,
    },
    {
      what: 'a failed write leaves a slot another write of the owner also claimed',
      steps: (r) => (r.allocate(3, 'a'), r.allocate(3, 'a'), r.unclaim(3, 'a')),
      holder: 'a',
    },
    {
      what: 'a failed write leaves a slot a stored version holds',
      steps: (r) => (r.hold(3, 'a'), r.allocate(3, 'a'), r.unclaim(3, 'a')),
      holder: 'a',
    },
    {
      what: 'holding is idempotent',
      steps: (r) => (r.hold(3, 'a'), r.hold(3, 'a'), r.unclaim(3, 'a')),
      holder: undefined,
    },
    {
      what: 'another owner cannot unclaim',
      steps: (r) => (r.allocate(3, 'a'), r.unclaim(3, 'b')),
      holder: 'a',
    },
    {
      what: 'a release frees whatever the claims',
      steps: (r) => (r.allocate(3, 'a'), r.allocate(3, 'a'), r.release(3, 'a')),
      holder: undefined,
    },
  ])('$what', ({ steps, holder }) => {
    const r = new RangeAllocator(8, 0);
    steps(r);
    expect(r.holder(3)).toBe(holder);
  });

  it('reports whether a slot is new, held by the owner, or taken', () => {
    const r = new RangeAllocator(8, 0);
    expect([r.allocate(1, 'a'), r.allocate(1, 'a'), r.allocate(1, 'b')]).toEqual(['new', 'held', 'taken']);
  });
});
