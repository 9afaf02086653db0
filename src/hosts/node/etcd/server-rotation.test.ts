// The choice of server per call: in turn, skipping a resting one unless all rest (no etcd needed).
import { describe, expect, it } from 'vitest';
import { ServerRotation } from './server-rotation';

describe('ServerRotation', () => {
  it.each([
    { name: 'one server', count: 1, failed: [] as number[], at: 0, want: [0, 0, 0] },
    { name: 'three in turn', count: 3, failed: [], at: 0, want: [0, 1, 2, 0, 1] },
    { name: 'a failed server skipped while it rests', count: 3, failed: [1], at: 10, want: [0, 2, 0, 2] },
    { name: 'a failed server back after its rest', count: 3, failed: [1], at: 100, want: [0, 1, 2, 0] },
    { name: 'every server resting: still in turn', count: 2, failed: [0, 1], at: 10, want: [0, 1, 0] },
  ])('$name', ({ count, failed, at, want }) => {
    let clock = 0;
    const rotation = new ServerRotation(count, 100, () => clock);
    for (const index of failed) rotation.failed(index);
    clock = at;
    expect(want.map(() => rotation.pick())).toEqual(want);
  });

  it('takes a resting server back once it answered', () => {
    const rotation = new ServerRotation(2, 100, () => 0);
    rotation.failed(1);
    expect([rotation.pick(), rotation.pick()]).toEqual([0, 0]);
    rotation.answered(1);
    expect([rotation.pick(), rotation.pick()]).toEqual([1, 0]);
  });
});
