/**
 * Where a built script's bytes come from: reads the source map of a size
 * profile build (`ORCH_PROFILE_BUILD=size npx vite build`), gives every
 * byte of the minified script to the source its mapping names, and prints
 * each origin's share of the script's gzip size (its share of the raw bytes
 * times the gzip size of the whole, an estimate: code compresses unevenly),
 * grouped by package or by the first `depth` folders under `src/`.
 * With `--real`, each listed origin's weight is measured instead: the
 * script's gzip size less that of the script without the origin's bytes
 * (JSON compresses far better than code, so the estimate overstates it).
 *
 *   npx tsx scripts/script-size-by-origin.ts dist/sw.js [depth=2] [top=40] [--real]
 */

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { SourceMapConsumer } from 'source-map-js';
import { originOf } from './source-origin';

const args = process.argv.slice(2);
const real = args.includes('--real');
const [file, depthArg, topArg] = args.filter((a) => a !== '--real');
if (file === undefined) throw new Error('usage: script-size-by-origin.ts <script.js> [depth] [top]');
const depth = Number(depthArg ?? 2);
const top = Number(topArg ?? 40);

const code = readFileSync(file, 'utf8');
const map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
const lines = code.split('\n');
const bytes = new Map<string, number>();
const give = (origin: string, n: number) => bytes.set(origin, (bytes.get(origin) ?? 0) + n);

// Mappings in generated order: each covers its line from its column up to the next mapping.
const byLine: { column: number; origin: string }[][] = lines.map(() => []);
// Byte ranges (per line, by string index) of each origin, for `--real`.
const segments: { line: number; from: number; to: number; origin: string }[] = [];
map.eachMapping((m) =>
  byLine[m.generatedLine - 1]?.push({ column: m.generatedColumn, origin: originOf(m.source, depth) }),
);
lines.forEach((line, i) => {
  const marks = byLine[i] ?? [];
  marks.sort((a, b) => a.column - b.column);
  const lineBytes = (from: number, to: number) => Buffer.byteLength(line.slice(from, to));
  if (marks.length === 0) return give('(unmapped)', lineBytes(0, line.length) + 1);
  give('(unmapped)', lineBytes(0, marks[0]?.column ?? 0) + 1);
  marks.forEach((m, j) => {
    const to = marks[j + 1]?.column ?? line.length;
    give(m.origin, lineBytes(m.column, to));
    segments.push({ line: i, from: m.column, to, origin: m.origin });
  });
});

/** The script's gzip size without `origin`'s bytes. */
function gzipWithout(origin: string): number {
  const cut = lines.map(() => [] as { from: number; to: number }[]);
  for (const s of segments) if (s.origin === origin) cut[s.line]?.push(s);
  const kept = lines.map((line, i) => {
    let out = '';
    let at = 0;
    for (const c of cut[i] ?? []) {
      out += line.slice(at, c.from);
      at = c.to;
    }
    return out + line.slice(at);
  });
  return gzipSync(kept.join('\n'), { level: 6 }).length;
}

const total = [...bytes.values()].reduce((a, b) => a + b, 0);
const gzip = gzipSync(code, { level: 6 }).length;
const kib = (n: number) => (n / 1024).toFixed(1);
console.log(`${file}: ${kib(Buffer.byteLength(code))} KiB, ${kib(gzip)} KiB gzip`);
for (const [origin, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  const estimate = `${kib((n / total) * gzip).padStart(7)} KiB gzip`;
  const measured = real ? `${kib(gzip - gzipWithout(origin)).padStart(7)} KiB real  ` : '';
  console.log(`${estimate}  ${measured}${origin}`);
}
