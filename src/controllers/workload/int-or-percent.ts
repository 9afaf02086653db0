/**
 * `intstr.GetScaledValueFromIntOrPercent`: an int-or-string such as
 * `maxSurge: 25%` resolved against a total, rounding up or down.
 */

import type { IntOrString } from './types';

export function scaledValue(value: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const m = /^(-?\d+)%$/.exec(value);
  if (m === null) {
    const n = Number(value);
    if (Number.isInteger(n)) return n;
    throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  }
  const v = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(v) : Math.floor(v);
}
