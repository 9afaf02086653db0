/**
 * A scratch probe, run by hand (`npx tsx bench/trace-first-visit.ts DIST [DIST…]`): Chrome traces of first
 * visits to one or more builds (each a `dist/` served as the benches serve it), visits alternating build by
 * build, to see what the worker's thread and the browser do between the worker thread's start and the
 * script's first statement (`orch:script`). For each visit it prints the spans from navigation, the slices on
 * the service worker's thread in that window by name, and the network events of `sw.js`.
 * `ORCH_TRACE_VISITS` (default 3) visits per build; `ORCH_TRACE_OUT` writes each trace's JSON there.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../e2e/support/chromium';
import { previewBuild } from './preview-build';
import { settledPage, usableAfter, usableProbe } from './usable-probe';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

const categories = [
  'devtools.timeline',
  'v8',
  'v8.compile',
  'disabled-by-default-v8.compile',
  'ServiceWorker',
  'loading',
  'blink.user_timing',
  'netlog',
  'disabled-by-default-netlog',
  'toplevel',
  'blink',
].join(',');

async function main(): Promise<void> {
  const dists = process.argv.slice(2).map((d) => resolve(d));
  const visits = Number(process.env.ORCH_TRACE_VISITS ?? 3);
  const out = process.env.ORCH_TRACE_OUT;
  if (out !== undefined) mkdirSync(out, { recursive: true });
  const choice = findChromium();
  if (choice === undefined) throw new Error('no Chromium');
  const servers = await Promise.all(dists.map((outDir) => previewBuild(outDir)));
  const browser = await chromium.launch({ executablePath: choice.executablePath, args: CHROMIUM_ARGS });
  try {
    for (let visit = 0; visit < visits; visit++)
      for (const [i, server] of servers.entries()) {
        const url = server.resolvedUrls?.local[0] ?? '';
        const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
        try {
          const page = await settledPage(context);
          await page.addInitScript({ content: usableProbe });
          const cdp = await browser.newBrowserCDPSession();
          const events: TraceEvent[] = [];
          cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
          const complete = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
          await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
          await usableAfter(page, () => page.goto(url));
          await cdp.send('Tracing.end');
          await complete;
          if (out !== undefined) writeFileSync(`${out}/visit-${visit}-${i}.json`, JSON.stringify(events));
          process.stdout.write(`\n=== ${dists[i]} visit ${visit + 1}\n${summary(events)}\n`);
        } finally {
          await context.close();
        }
      }
  } finally {
    await browser.close();
    for (const server of servers) await new Promise<void>((done) => server.httpServer.close(() => done()));
  }
}

function summary(events: TraceEvent[]): string {
  const threadNames = new Map<string, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
  const nav = events.find((e) => e.name === 'navigationStart');
  const t0 = nav?.ts ?? 0;
  const ms = (ts: number): string => ((ts - t0) / 1000).toFixed(1);
  const mark = (name: string): TraceEvent | undefined => events.find((e) => e.name === name);
  const script = mark('orch:script');
  if (script === undefined) return 'no orch:script in the trace';
  const swThread = `${script.pid}:${script.tid}`;
  const onSw = events.filter((e) => `${e.pid}:${e.tid}` === swThread && e.ph === 'X');
  const first = Math.min(...onSw.map((e) => e.ts));
  const lines: string[] = [
    `sw thread ${threadNames.get(swThread)}: first slice ${ms(first)}, orch:script ${ms(script.ts)}, ` +
      ['orch:evaluated', 'orch:built', 'orch:install', 'orch:activate', 'orch:serving']
        .map((n) => `${n.slice(5)} ${mark(n) ? ms(mark(n)!.ts) : '-'}`)
        .join(', '),
  ];
  // Slices on the worker's thread from its start to the script's first statement, top-level and nested.
  const window = onSw.filter((e) => e.ts < script.ts);
  const byName = new Map<string, { n: number; dur: number; first: number }>();
  for (const e of window) {
    const k = `${e.cat}/${e.name}`;
    const v = byName.get(k) ?? { n: 0, dur: 0, first: e.ts };
    v.n++;
    v.dur += (e.dur ?? 0) / 1000;
    byName.set(k, v);
  }
  lines.push('  sw thread slices before orch:script (name: count, total ms, first at):');
  for (const [k, v] of [...byName].sort((a, b) => b[1].dur - a[1].dur).slice(0, 25))
    lines.push(`    ${k}: ${v.n}, ${v.dur.toFixed(1)}, ${ms(v.first)}`);
  lines.push('  long slices (≥3 ms) on the sw thread before orch:script:');
  for (const e of window.filter((x) => (x.dur ?? 0) >= 3000))
    lines.push(`    ${ms(e.ts)} +${((e.dur ?? 0) / 1000).toFixed(1)} ${e.cat}/${e.name} ${brief(e.args)}`);
  // Anything naming sw.js anywhere.
  lines.push('  events naming sw.js:');
  for (const e of events.filter((x) => JSON.stringify(x.args ?? {}).includes('/sw.js')).slice(0, 40))
    lines.push(
      `    ${ms(e.ts)} ${e.ph}${e.dur !== undefined ? ` +${(e.dur / 1000).toFixed(1)}` : ''} ${threadNames.get(`${e.pid}:${e.tid}`)} ${e.cat}/${e.name} ${brief(e.args)}`,
    );
  return lines.join('\n');
}

function brief(args: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(args ?? {});
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

await main();
