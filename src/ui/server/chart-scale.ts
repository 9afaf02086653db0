/**
 * The y scale of the metrics charts: the top line is a round number just
 * above the highest value, so the one label the chart carries reads well.
 */

/** A tidy upper bound: 1, 2 or 5 times a power of ten, at least `value`. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}
