/**
 * Resource quantities (`100m`, `128Mi`, `1e3`) as LimitRanger, ResourceQuota
 * and the scheduler need them: parsed exactly (held as a count of nano-units in
 * a bigint, so sums and comparisons never lose precision), added,
 * subtracted and compared, and printed in the canonical form the real
 * `resource.Quantity.String()` gives, because the refusal messages quote
 * quantities and clients match on them. The suffix family a value was
 * written in (binary `Ki`, decimal `k`, exponent `e3`) is kept, as the real
 * type keeps it, and decides how it is printed.
 */

export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

export interface Quantity {
  /** The value in units of 10^-9 (precision below a nano-unit rounds up, as the real parser does). */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const NANO = 1_000_000_000n;

const binarySuffixes: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};

/** Decimal suffixes by their power of ten. */
const decimalSuffixes: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const decimalByExponent = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));

const pattern = /^([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Divides rounding away from zero (the real parser rounds sub-nano precision up). */
function divCeil(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b === 0n ? q : a > 0n ? q + 1n : q - 1n;
}

/** Parses a quantity; undefined when it is not one (the caller words the error). */
export function parseQuantity(input: unknown): Quantity | undefined {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    return parseQuantity(String(input));
  }
  if (typeof input !== 'string') return undefined;
  const m = pattern.exec(input.trim());
  if (m === null) return undefined;
  const [, sign = '', number = '', suffix = ''] = m;
  const [whole = '', fraction = ''] = number.split('.');
  const mantissa = BigInt((whole === '' ? '0' : whole) + fraction) * (sign === '-' ? -1n : 1n);
  const scale = fraction.length;
  let format: QuantityFormat;
  let numerator: bigint;
  let denominator = pow10(scale);
  if (suffix in binarySuffixes) {
    format = 'BinarySI';
    numerator = mantissa * (binarySuffixes[suffix] as bigint) * NANO;
  } else if (suffix.startsWith('e') || suffix.startsWith('E')) {
    format = 'DecimalExponent';
    const exp = Number(suffix.slice(1)) + 9;
    if (Math.abs(exp) > 60) return undefined;
    numerator = exp >= 0 ? mantissa * pow10(exp) : mantissa;
    if (exp < 0) denominator *= pow10(-exp);
  } else {
    format = 'DecimalSI';
    const exp = (decimalSuffixes[suffix] ?? 0) + 9;
    numerator = mantissa * pow10(exp);
  }
  return { nanos: divCeil(numerator, denominator), format };
}

export function quantity(nanos: bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
  return { nanos, format };
}

/** A whole count (`pods=1`). */
export function count(n: number): Quantity {
  return { nanos: BigInt(n) * NANO, format: 'DecimalSI' };
}

export const zero: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** The sum keeps the first operand's format, as `Quantity.Add` does. */
export function add(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.format };
}

export function subtract(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.format };
}

export function compare(a: Quantity, b: Quantity): number {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/**
 * A quantity as a double, for what controllers compare where a double's
 * precision is enough (a pod's usage against its requests, a claim's size
 * against a volume's); 0 when it is not a quantity.
 */
export function quantityValue(input: unknown): number {
  const q = parseQuantity(input);
  return q === undefined ? 0 : Number(q.nanos) / 1e9;
}

/** `MilliValue()`: the value in thousandths, rounded up. */
export function milliValue(q: Quantity): bigint {
  return divCeil(q.nanos, 1_000_000n);
}

function decimalParts(nanos: bigint): { mantissa: bigint; exponent: number } {
  // The largest power of ten in steps of three that leaves a whole mantissa, capped at exa.
  let mantissa = nanos;
  let exponent = -9;
  while (exponent < 18 && mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  return { mantissa, exponent };
}

/** The canonical text, as `Quantity.String()` prints it. */
export function formatQuantity(q: Quantity): string {
  if (q.nanos === 0n) return '0';
  if (q.format === 'BinarySI') {
    const abs = q.nanos < 0n ? -q.nanos : q.nanos;
    // Small or fractional binary values print in decimal, as the real canonicalisation does.
    if (abs >= 1024n * NANO && q.nanos % NANO === 0n) {
      let value = q.nanos / NANO;
      let i = 0;
      const names = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
      while (i < 6 && value % 1024n === 0n) {
        value /= 1024n;
        i++;
      }
      return `${value}${names[i] ?? ''}`;
    }
  }
  const { mantissa, exponent } = decimalParts(q.nanos);
  if (q.format === 'DecimalExponent') return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  return `${mantissa}${decimalByExponent.get(exponent) ?? ''}`;
}

/** A resource list (`{cpu: '100m'}`) as quantities; entries that do not parse are skipped (validation rejected them already). */
export type ResourceList = Map<string, Quantity>;

export function parseResourceList(raw: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const q = parseQuantity(v);
    if (q !== undefined) out.set(k, q);
  }
  return out;
}

/** The wire form of a resource list. */
export function toWire(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = formatQuantity(list.get(k) as Quantity);
  return out;
}

export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const have = out.get(k);
    out.set(k, have === undefined ? v : add(have, v));
  }
  return out;
}

export function subtractLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const have = out.get(k);
    out.set(k, have === undefined ? { nanos: -v.nanos, format: v.format } : subtract(have, v));
  }
  return out;
}

/** `a=1,b=2` in key order, the real `prettyPrint`. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k) as Quantity)}`)
    .join(',');
}
