/**
 * A CPU profile of the service worker on a first visit, from its thread's
 * start to the first usable screen: serves a profile build
 * (`ORCH_PROFILE_BUILD=1 npx vite build`, unminified with a source map, or
 * the `dist/` named by `ORCH_TIMELINE_DIST`), pauses the worker at its start
 * (CDP auto-attach with `waitForDebuggerOnStart`), starts V8's sampling
 * profiler before its first statement, and once the page is usable splits
 * the worker's samples between its start marks (`orch:*`) into idle, V8's
 * compile (`(program)`), garbage collection and our code by source file
 * (self time, through the source map), then lists the largest functions by
 * self and total time between `evaluated` and `serving`. Writes
 * `.bench/worker-first-visit.cpuprofile` (the first visit; open it in
 * DevTools) and `.bench/worker-first-visit.json` (every visit's profile and
 * marks; `ORCH_PROFILE_FROM=<that file>` analyses it again without a
 * browser). `ORCH_PROFILE_SPANS=1` adds each span's functions by total time.
 * Marks named `idb:*` (a scratch trace of IndexedDB's transactions, 0102)
 * are listed with the worker's own.
 *
 *   npx tsx scripts/worker-first-visit-profile.ts [visits=3] [top=25]
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { SourceMapConsumer } from 'source-map-js';
import { preview } from 'vite';
import { usableAfter, usableProbe } from '../bench/usable-probe';
import type { CpuProfile, ProfileNode } from '../bench/profile-worker';
import { TargetSession } from '../bench/worker-target';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';

const visits = Number(process.argv[2] ?? 3);
const top = Number(process.argv[3] ?? 25);
const outDir = resolve(process.env.ORCH_TIMELINE_DIST ?? 'dist');
const map = new SourceMapConsumer(JSON.parse(readFileSync(resolve(outDir, 'sw.js.map'), 'utf8')));

type Marks = Record<string, number>;
const results: { profile: CpuProfile; marks: Marks }[] = [];
const saved = process.env.ORCH_PROFILE_FROM;
if (saved !== undefined) results.push(...(JSON.parse(readFileSync(saved, 'utf8')) as typeof results));
else await profileVisits();

async function profileVisits(): Promise<void> {
  const choice = findChromium();
  if (choice === undefined) throw new Error(CHROMIUM_HELP);
  const server = await preview({
    configFile: false,
    root: resolve(outDir, '..'),
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'warn',
  });
  const url = server.resolvedUrls?.local[0] ?? '';
  const browser = await chromium.launch({ executablePath: choice.executablePath, args: CHROMIUM_ARGS });

  try {
    for (let v = 0; v < visits; v++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      let worker: TargetSession | undefined;
      const started = new Promise<TargetSession>((resolveWorker) => {
        cdp.on('Target.attachedToTarget', (event) => {
          const session = new TargetSession(cdp, event.sessionId);
          if (event.targetInfo.type !== 'service_worker') {
            void session.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
            return;
          }
          void (async () => {
            await session.send('Profiler.enable');
            await session.send('Profiler.setSamplingInterval', { interval: 100 });
            await session.send('Profiler.start');
            await session.send('Runtime.runIfWaitingForDebugger');
            worker = session;
            resolveWorker(session);
          })();
        });
      });
      await cdp.send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: false,
      });
      await page.addInitScript({ content: usableProbe });
      const usable = await usableAfter(page, () => page.goto(url));
      const session = worker ?? (await started);
      const { profile } = await session.send<{ profile: CpuProfile }>('Profiler.stop');
      const { result } = await session.send<{ result: { value: [string, number][] } }>('Runtime.evaluate', {
        expression: `performance.getEntriesByType('mark').filter((m) => /^(orch|idb):/.test(m.name)).map((m) => [m.name.replace(/^orch:/, ''), m.startTime])`,
        returnByValue: true,
      });
      const marks: Marks = Object.fromEntries(result.value);
      process.stdout.write(
        `visit ${v + 1}: usable ${usable.toFixed(0)} ms; worker marks ${JSON.stringify(marks, (_, x) => (typeof x === 'number' ? Math.round(x) : x))}\n`,
      );
      results.push({ profile, marks });
      await cdp.detach();
      await context.close();
    }
  } finally {
    await browser.close();
    await new Promise<void>((done) => server.httpServer.close(() => done()));
  }

  mkdirSync('.bench', { recursive: true });
  writeFileSync('.bench/worker-first-visit.cpuprofile', JSON.stringify(results[0]?.profile));
  writeFileSync('.bench/worker-first-visit.json', JSON.stringify(results));
}

const sourceCache = new Map<string, string>();
function sourceOf(frame: ProfileNode['callFrame']): string {
  if (frame.url === '') return frame.functionName === '' ? '(anonymous native)' : frame.functionName;
  if (!frame.url.includes('/sw.js')) return new URL(frame.url).pathname;
  if (frame.lineNumber < 0) return '(sw.js)';
  const key = `${frame.lineNumber}:${frame.columnNumber}`;
  let found = sourceCache.get(key);
  if (found === undefined) {
    const pos = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
    found = (pos.source ?? '?').replace(/^.*?(node_modules\/|src\/)/, '$1');
    sourceCache.set(key, found);
  }
  return found;
}

const spans: [string, string][] = [
  ['script', 'evaluated'],
  ['evaluated', 'built'],
  ['built', 'install'],
  ['install', 'activate'],
  ['activate', 'settings'],
  ['settings', 'identity'],
  ['identity', 'informers'],
  ['informers', 'essentials'],
  ['essentials', 'serving'],
  ['evaluated', 'serving'],
];
type Tally = Map<string, number>;
const add = (t: Tally, k: string, ms: number) => t.set(k, (t.get(k) ?? 0) + ms);
const perSpan = new Map<string, { self: Tally; category: Tally; total: Tally }>();
const total: Tally = new Map();
const selfFn: Tally = new Map();

for (const { profile, marks } of results) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Align the profile's clock with the worker's marks: the first sample in our script is `orch:script`.
  let t = 0;
  const times = profile.timeDeltas.map((d) => (t += d / 1000));
  const firstOurs = profile.samples.findIndex((id) => byId.get(id)?.callFrame.url.includes('/sw.js'));
  const offset = (marks['script'] ?? 0) - (times[firstOurs] ?? 0);
  for (let i = 0; i < profile.samples.length; i++) {
    const at = (times[i] ?? 0) + offset;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000 / results.length;
    const node = byId.get(profile.samples[i] as number) as ProfileNode;
    const fn = node.callFrame.functionName;
    const category = ['(idle)', '(program)', '(garbage collector)'].includes(fn) ? fn : 'js';
    for (const [from, to] of spans) {
      const a = marks[from];
      const b = marks[to];
      if (a === undefined || b === undefined || at < a || at >= b) continue;
      const key = `${from} → ${to}`;
      const entry = perSpan.get(key) ?? { self: new Map(), category: new Map(), total: new Map() };
      perSpan.set(key, entry);
      add(entry.category, category, ms);
      if (category === 'js') add(entry.self, sourceOf(node.callFrame), ms);
      const seenHere = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const f = (byId.get(id) as ProfileNode).callFrame;
        if (f.url === '') continue;
        const k = `${f.functionName || '(anonymous)'} ${sourceOf(f)}:${f.lineNumber + 1}`;
        if (!seenHere.has(k)) add(entry.total, k, ms);
        seenHere.add(k);
      }
      if (from === 'evaluated' && to === 'serving') {
        if (category === 'js')
          add(
            selfFn,
            `${fn || '(anonymous)'} ${sourceOf(node.callFrame)}:${node.callFrame.lineNumber + 1}`,
            ms,
          );
        const seen = new Set<string>();
        for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
          const f = (byId.get(id) as ProfileNode).callFrame;
          if (f.url === '') continue;
          const k = `${f.functionName || '(anonymous)'} ${sourceOf(f)}:${f.lineNumber + 1}`;
          if (seen.has(k)) continue;
          seen.add(k);
          add(total, k, ms);
        }
      }
    }
  }
}

const fmt = (t: Tally, n: number) =>
  [...t]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `    ${v.toFixed(1).padStart(7)}  ${k}`)
    .join('\n');
process.stdout.write(`\nmean ms per visit (${results.length} visits), by span:\n`);
for (const [from, to] of spans) {
  const entry = perSpan.get(`${from} → ${to}`);
  if (entry === undefined) continue;
  const sum = [...entry.category.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(
    `  ${from} → ${to}: ${sum.toFixed(1)} ms  ${[...entry.category].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' · ')}\n`,
  );
  process.stdout.write(`${fmt(entry.self, from === 'evaluated' && to === 'serving' ? top : 6)}\n`);
  if (process.env.ORCH_PROFILE_SPANS === '1') process.stdout.write(`   by total:\n${fmt(entry.total, 22)}\n`);
}
process.stdout.write(`\nevaluated → serving, functions by self time:\n${fmt(selfFn, top)}\n`);
process.stdout.write(`\nevaluated → serving, functions by total time:\n${fmt(total, top * 2)}\n`);
