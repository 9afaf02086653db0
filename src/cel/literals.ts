/**
 * Bytes literals as CEL defines them: characters outside ASCII are their
 * UTF-8 bytes (`b'ÿ'` is two bytes), escapes are single bytes. The engine's
 * lexer keeps only the low byte of each UTF-16 unit, so we re-decode every
 * bytes literal from its source text.
 */

import type { Node } from './engine';

const SIMPLE_ESCAPES: Record<string, number> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  '\\': 92,
  '?': 63,
  '"': 34,
  "'": 39,
  '`': 96,
};

export function fixBytesLiteral(node: Node): void {
  if (!(node.args instanceof Uint8Array)) return;
  const text = node.input.slice(node.start, node.end);
  const m = /^[bB](?:'''|"""|'|")([\s\S]*?)(?:'''|"""|'|")$/.exec(text);
  if (m === null) return;
  node.args = decode(m[1]!);
}

function decode(body: string): Uint8Array {
  const out: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < body.length;) {
    const c = body[i]!;
    if (c !== '\\') {
      const ch = String.fromCodePoint(body.codePointAt(i)!);
      out.push(...encoder.encode(ch));
      i += ch.length;
      continue;
    }
    const next = body[i + 1] ?? '';
    if (SIMPLE_ESCAPES[next] !== undefined) {
      out.push(SIMPLE_ESCAPES[next]!);
      i += 2;
    } else if (next === 'x' || next === 'X') {
      out.push(parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (next >= '0' && next <= '7') {
      out.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      out.push(...encoder.encode(next));
      i += 2;
    }
  }
  return new Uint8Array(out);
}
