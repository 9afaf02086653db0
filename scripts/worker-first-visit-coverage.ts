/**
 * Which of the worker script's bytes a first visit runs: serves the size
 * profile build (`ORCH_PROFILE_BUILD=size npx vite build`, minified with a
 * source map), makes one first visit in a fresh Chromium context up to the
 * first usable screen, then reads V8's best-effort coverage of the service
 * worker (the functions that have run, without instrumenting the visit) and
 * gives every byte of `dist/sw.js` to its innermost function, run or never
 * run, grouped by origin as `script-size-by-origin.ts` groups them.
 *
 * Every byte of a function that never runs is still pre-parsed when the
 * worker's script is compiled, on the worker's thread before its first
 * statement (0100): this lists where those bytes are, the candidates for a
 * lazy script. Bytes outside any function (the top level, the JSON strings)
 * count as run.
 *
 *   npx tsx scripts/worker-first-visit-coverage.ts [depth=2] [top=40]
 */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { preview } from 'vite';
import { usableAfter, usableProbe } from '../bench/usable-probe';
import { attachToWorker } from '../bench/worker-target';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';
import { originOf } from './source-origin';

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

const depth = Number(process.argv[2] ?? 2);
const top = Number(process.argv[3] ?? 40);
const code = readFileSync(resolve('dist/sw.js'), 'utf8');
const map = new SourceMapConsumer(JSON.parse(readFileSync(resolve('dist/sw.js.map'), 'utf8')));

const choice = findChromium();
if (choice === undefined) throw new Error(CHROMIUM_HELP);
const server = await preview({ preview: { port: 0, host: '127.0.0.1' }, logLevel: 'warn' });
const browser = await chromium.launch({ executablePath: choice.executablePath, args: CHROMIUM_ARGS });
let ranges: Range[];
let usable: number;
try {
  const page = await (await browser.newContext()).newPage();
  await page.addInitScript({ content: usableProbe });
  usable = await usableAfter(page, () => page.goto(server.resolvedUrls?.local[0] ?? ''));
  const worker = await attachToWorker(await browser.newBrowserCDPSession());
  await worker.send('Profiler.enable');
  const { result } = await worker.send<{
    result: { url: string; functions: { ranges: Range[] }[] }[];
  }>('Profiler.getBestEffortCoverage');
  const script = result.find((s) => new URL(s.url).pathname === '/sw.js');
  if (script === undefined) throw new Error('the worker reported no coverage of /sw.js');
  ranges = script.functions.flatMap((f) => f.ranges);
} finally {
  await browser.close();
  await new Promise<void>((done) => server.httpServer.close(() => done()));
}

// Outer ranges first, so that a nested function's range overrides its enclosing one's.
ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
const ran = new Uint8Array(code.length).fill(1);
for (const r of ranges) ran.fill(r.count > 0 ? 1 : 0, r.startOffset, r.endOffset);

// Each mapping's generated segment runs to the next mapping on its line.
const lineStarts = [0];
for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStarts.push(i + 1);
const segments: { at: number; origin: string }[] = [];
map.eachMapping((m) =>
  segments.push({
    at: (lineStarts[m.generatedLine - 1] ?? 0) + m.generatedColumn,
    origin: originOf(m.source, depth),
  }),
);
segments.sort((a, b) => a.at - b.at);
const bytes = new Map<string, { run: number; never: number }>();
for (let i = 0; i < segments.length; i++) {
  const { at, origin } = segments[i] as { at: number; origin: string };
  const end = segments[i + 1]?.at ?? code.length;
  const entry = bytes.get(origin) ?? { run: 0, never: 0 };
  for (let c = at; c < end; c++) entry[ran[c] === 1 ? 'run' : 'never']++;
  bytes.set(origin, entry);
}

let run = 0;
let never = 0;
for (const entry of bytes.values()) {
  run += entry.run;
  never += entry.never;
}
process.stdout.write(
  `first usable screen at ${usable.toFixed(0)} ms; dist/sw.js ${code.length} bytes: ` +
    `${run} in code that ran, ${never} in functions that never ran\n` +
    `${'origin'.padEnd(48)}${'ran'.padStart(9)}${'never ran'.padStart(11)}\n`,
);
for (const [origin, entry] of [...bytes].sort((a, b) => b[1].never - a[1].never).slice(0, top))
  process.stdout.write(
    `${origin.padEnd(48)}${String(entry.run).padStart(9)}${String(entry.never).padStart(11)}\n`,
  );
