/**
 * Key order of YAML answers. The real server writes YAML by turning its JSON
 * into generic maps and marshalling those with go-yaml v2 (sigs.k8s.io/yaml),
 * which sorts every map's keys in its own "natural" order: at the first rune
 * that differs, two letters compare by code point, a non-letter comes before
 * a letter, and runs of digits compare by their numeric value (`a2` before
 * `a10`). So a YAML answer has sorted keys at every depth, whatever the kind.
 */

const letter = /\p{L}/u;
const digit = /\p{Nd}/u;

function isLetter(c: string): boolean {
  return letter.test(c);
}

function isDigit(c: string): boolean {
  return digit.test(c);
}

/** go-yaml v2's `keyList.Less` for two string keys. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const x = ar[i] as string;
    const y = br[i] as string;
    if (x === y) continue;
    const al = isLetter(x);
    const bl = isLetter(y);
    if (al && bl) return (x.codePointAt(0) ?? 0) < (y.codePointAt(0) ?? 0);
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] as string); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai] as string); ai++) an = an * 10 + digitValue(ar[ai] as string);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi] as string); bi++) bn = bn * 10 + digitValue(br[bi] as string);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (x.codePointAt(0) ?? 0) < (y.codePointAt(0) ?? 0);
  }
  return ar.length < br.length;
}

function digitValue(c: string): number {
  return (c.codePointAt(0) ?? 48) - 48;
}

function compare(a: string, b: string): number {
  return yamlKeyLess(a, b) ? -1 : yamlKeyLess(b, a) ? 1 : 0;
}

/** A copy of a JSON value with every object's keys in go-yaml v2's order. */
export function yamlSorted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(yamlSorted);
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort(compare)) if (o[k] !== undefined) out[k] = yamlSorted(o[k]);
  return out;
}
