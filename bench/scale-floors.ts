/**
 * The scale section's floors (decision 0125): each per-request figure of the
 * browser host (GET p50, one page of 500, creates/s) set beside the same step
 * done by the trivial handler on the raw IndexedDB database of the same worker
 * at the same size, and its growth from the smallest size beside the floor's
 * own growth. A figure that grows no more than its floor grows with IndexedDB;
 * what it grows beyond is ours.
 */

import type { Figure } from './report';

/** A figure and its floor at one size; `higherIsBetter` for rates. */
export interface FloorPair {
  /** e.g. "GET p50". */
  name: string;
  /** What the floor does, e.g. "trivial handler + raw IndexedDB get". */
  floorName: string;
  unit: string;
  higherIsBetter?: boolean;
  /** Size → [figure, floor]; a size without both is left out. */
  values: Map<number, [number | undefined, number | undefined]>;
}

export function sizeLabel(n: number): string {
  return `${n >= 1000 ? `${n / 1000}k` : n} objects`;
}

/** How many times its cost at the base size a value's cost is (rates: the inverse). */
function growth(value: number, base: number, higherIsBetter: boolean | undefined): number {
  return higherIsBetter === true ? base / value : value / base;
}

/**
 * For every size: the figure beside its floor at that size; for every size but the first: the figure's growth
 * from the first size beside the floor's growth (both as a cost ratio, ×), so the printed ratio of the two is the
 * growth that is not IndexedDB's.
 */
export function floorFigures(
  section: string,
  sizes: readonly number[],
  pairs: readonly FloorPair[],
): Figure[] {
  const figures: Figure[] = [];
  const base = sizes[0];
  for (const pair of pairs) {
    const first = base === undefined ? undefined : pair.values.get(base);
    for (const n of sizes) {
      const [value, floor] = pair.values.get(n) ?? [];
      if (value === undefined || floor === undefined) continue;
      figures.push({
        section,
        name: `${sizeLabel(n)}: ${pair.name}, beside its floor`,
        value,
        unit: pair.unit,
        floor,
        floorName: `${pair.floorName}, same size`,
        ...(pair.higherIsBetter === true ? { higherIsBetter: true } : {}),
      });
      const [firstValue, firstFloor] = first ?? [];
      if (n === base || firstValue === undefined || firstFloor === undefined) continue;
      figures.push({
        section,
        name: `${sizeLabel(n)} ÷ ${sizeLabel(base ?? 0)}: ${pair.name}, growth`,
        value: growth(value, firstValue, pair.higherIsBetter),
        unit: '×',
        floor: growth(floor, firstFloor, pair.higherIsBetter),
        floorName: `the floor's growth (${pair.floorName})`,
      });
    }
  }
  return figures;
}
