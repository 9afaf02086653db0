// The scale bench's floors (bench/scale-floors.ts): each figure beside its floor at the same size, and its growth
// beside the floor's growth, rates turned into cost ratios.
import { describe, expect, it } from 'vitest';
import { floorFigures } from '../bench/scale-floors';
import { costRatio } from '../bench/report';

describe('floorFigures', () => {
  it('sets each figure beside its floor at its size, and its growth beside the floor growth', () => {
    const figures = floorFigures(
      's',
      [1000, 100_000],
      [
        {
          name: 'GET p50',
          floorName: 'raw get',
          unit: 'ms',
          values: new Map([
            [1000, [4, 2]],
            [100_000, [8, 3]],
          ]),
        },
      ],
    );
    expect(figures.map((f) => [f.name, f.value, f.floor, f.unit])).toEqual([
      ['1k objects: GET p50, beside its floor', 4, 2, 'ms'],
      ['100k objects: GET p50, beside its floor', 8, 3, 'ms'],
      ['100k objects ÷ 1k objects: GET p50, growth', 2, 1.5, '×'],
    ]);
    // The growth that is not the floor's: 2× over 1.5×.
    expect(costRatio(figures[2]!)).toBeCloseTo(4 / 3);
  });

  it('turns rates into cost growth, so a slower rate at the larger size is a ratio over 1', () => {
    const figures = floorFigures(
      's',
      [1000, 100_000],
      [
        {
          name: 'creates/s',
          floorName: 'raw write',
          unit: '/s',
          higherIsBetter: true,
          values: new Map([
            [1000, [100, 400]],
            [100_000, [50, 200]],
          ]),
        },
      ],
    );
    expect(figures[0]).toMatchObject({ value: 100, floor: 400, higherIsBetter: true });
    expect(costRatio(figures[0]!)).toBe(4);
    expect(figures[2]).toMatchObject({ value: 2, floor: 2, unit: '×' });
    expect(figures[2]?.higherIsBetter).toBeUndefined();
    expect(costRatio(figures[2]!)).toBe(1);
  });

  it('leaves out a size without both values, and the growth when the first size lacks one', () => {
    const figures = floorFigures(
      's',
      [1000, 10_000, 100_000],
      [
        {
          name: 'page',
          floorName: 'raw getAll',
          unit: 'ms',
          values: new Map<number, [number | undefined, number | undefined]>([
            [1000, [10, undefined]],
            [10_000, [12, 9]],
          ]),
        },
      ],
    );
    expect(figures.map((f) => f.name)).toEqual(['10k objects: page, beside its floor']);
  });
});
