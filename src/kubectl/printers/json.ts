/**
 * JSON as Go's encoding/json writes it, which is what kubectl prints:
 * `MarshalIndent` with four spaces for `-o json`, compact `Marshal` for
 * jsonpath results; `<`, `>` and `&` escaped as `\u003c`…, U+2028/2029
 * escaped, control characters as `\n`, `\t`, `\r` or `\u00xx`. Objects read
 * from the server are maps, so their keys come out sorted (byte order);
 * objects kubectl builds itself keep their Go struct order (`sortKeys`
 * false).
 */

export interface GoJsonOptions {
  /** Indentation unit; empty for compact output. */
  indent?: string;
  sortKeys?: boolean;
}

export function goJson(value: unknown, options: GoJsonOptions = {}): string {
  const indent = options.indent ?? '';
  const sortKeys = options.sortKeys ?? true;
  const out: string[] = [];
  const emit = (v: unknown, depth: number): void => {
    if (v === null || v === undefined) return void out.push('null');
    if (typeof v === 'boolean') return void out.push(v ? 'true' : 'false');
    if (typeof v === 'number') return void out.push(Number.isFinite(v) ? String(v) : 'null');
    if (typeof v === 'string') return void out.push(goJsonString(v));
    const nl = indent === '' ? '' : '\n' + indent.repeat(depth + 1);
    const close = indent === '' ? '' : '\n' + indent.repeat(depth);
    if (Array.isArray(v)) {
      if (v.length === 0) return void out.push('[]');
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(',');
        out.push(nl);
        emit(item, depth + 1);
      });
      out.push(close + ']');
      return;
    }
    const record = v as Record<string, unknown>;
    let keys = Object.keys(record).filter((k) => record[k] !== undefined);
    if (sortKeys) keys = keys.sort(byteOrder);
    if (keys.length === 0) return void out.push('{}');
    out.push('{');
    keys.forEach((key, i) => {
      if (i > 0) out.push(',');
      out.push(nl + goJsonString(key) + (indent === '' ? ':' : ': '));
      emit(record[key], depth + 1);
    });
    out.push(close + '}');
  };
  emit(value, 0);
  return out.join('');
}

export function byteOrder(a: string, b: string): number {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  for (let i = 0; i < ea.length && i < eb.length; i++) {
    if (ea[i] !== eb[i]) return (ea[i] as number) - (eb[i] as number);
  }
  return ea.length - eb.length;
}

export function goJsonString(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0) as number;
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (cp < 0x20 || c === '<' || c === '>' || c === '&' || cp === 0x2028 || cp === 0x2029)
      out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += c;
  }
  return out + '"';
}
