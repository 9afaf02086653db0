import { describe, expect, it } from 'vitest';
import { niceCeiling } from './chart-scale';

describe('niceCeiling', () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect([0, -3, 0.7, 1, 1.2, 3, 7.5, 48, 100, 101, 0.013].map(niceCeiling)).toEqual([
      1, 1, 1, 1, 2, 5, 10, 50, 100, 200, 0.02,
    ]);
  });
});
