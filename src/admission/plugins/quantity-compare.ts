/**
 * Ordering of resource quantities (`10Gi` against `20G`), enough for
 * admission checks that only ask "did it grow?": the value as a rational
 * number scaled to a common denominator in BigInt, so `1Gi` and
 * `1073741824` compare equal and nothing rounds.
 */

const binary: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const decimal: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** Quantities as numerator over 10^30 (covers `n` and every fractional digit a valid quantity has). */
const scale = 30;

/** The quantity scaled by 10^30, or undefined when `text` is not a quantity. */
export function scaledQuantity(text: string): bigint | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\d+|[numkMGTPE]?)$/.exec(text.trim());
  if (m === null) return undefined;
  const [, sign = '', whole = '', fraction = '', suffix = ''] = m;
  if (whole === '' && fraction === '') return undefined;
  let exponent = 0;
  let factor = 1n;
  if (suffix in binary) factor = binary[suffix] ?? 1n;
  else if (/^[eE]/.test(suffix)) exponent = Number(suffix.slice(1));
  else exponent = decimal[suffix] ?? 0;
  const digits = BigInt(`${whole}${fraction}` || '0');
  const power = scale + exponent - fraction.length;
  const value = power >= 0 ? digits * 10n ** BigInt(power) : digits / 10n ** BigInt(-power);
  return (sign === '-' ? -value : value) * factor;
}

/** -1, 0 or 1 as `a` is less than, equal to or more than `b`; a missing or unparsable quantity counts as zero. */
export function compareQuantities(a: unknown, b: unknown): number {
  const x = typeof a === 'string' || typeof a === 'number' ? (scaledQuantity(String(a)) ?? 0n) : 0n;
  const y = typeof b === 'string' || typeof b === 'number' ? (scaledQuantity(String(b)) ?? 0n) : 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}
