/**
 * Go's text formatting of decoded JSON values, for messages the real server
 * builds with `%v`, `%q` and `%#v`: maps print as `map[a:1 b:x]` with sorted
 * keys, lists as `[a b]`, floats in Go's shortest form (`1e-05`, `1e+21`).
 * Clients and people compare these messages with the real server's.
 */

/** Go's `strconv.Quote`: a double-quoted literal with Go escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\v':
        out += '\\v';
        continue;
      default:
        break;
    }
    if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0x80 && c < 0xa0) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** Go's `%v` of a float64. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    const [mant, e] = n.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    const digits = e.replace(/^[-+]/, '');
    return `${mant}e${sign}${digits.padStart(2, '0')}`;
  }
  return String(n);
}

/**
 * Go's `%v` of a value decoded from JSON into `interface{}`. Integers decode
 * as int64 and print plainly; other numbers as float64.
 */
export function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number')
    return Number.isInteger(value) && Math.abs(value) < 2 ** 63
      ? String(value).replace(/e\+?/, 'e+')
      : goFloat(value);
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort(compareBytes);
    return `map[${keys.map((k) => `${k}:${goValue(obj[k])}`).join(' ')}]`;
  }
  return String(value);
}

/** Go's name of the dynamic type of a decoded JSON value (`reflect.TypeOf`). */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '%!s(<nil>)';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (Array.isArray(value)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Byte-wise string order, as Go sorts map keys (UTF-16 order agrees for the BMP). */
export function compareBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
