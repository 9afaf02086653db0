/**
 * Resource quantities as numbers, for what controllers compare (a claim's
 * size against a volume's, CPU usage against requests): `1Gi`, `500m`,
 * `2e3`. Precision beyond a double's is not needed there; anything that
 * does not parse counts as 0.
 */

const suffixes: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

export function quantityValue(text: string | number | undefined): number {
  if (typeof text === 'number') return text;
  if (text === undefined) return 0;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)([a-zA-Z]*)$/.exec(text.trim());
  if (m === null) return 0;
  const scale = suffixes[m[2] ?? ''];
  return scale === undefined ? 0 : Number(m[1]) * scale;
}
