/**
 * A probe run by hand (`npx tsx bench/first-visit-interleaved.ts DIST [DIST…]`, under the bench lock): first
 * visits to one or more builds (each a `dist/` served as the benches serve it), the builds alternating visit by
 * visit in one Chromium (A B, then B A, …), so that a load that rises or falls during the run falls on every
 * build alike. For each visit it prints the page's moments (the main script's arrival, the first contentful
 * paint, the worker's control, the first API request and answer, usable), the worker's own marks (`w:*`, as
 * `npm run bench -- timeline` reads them) and how much of the page's main thread went to long tasks before the
 * worker script's first statement (`long<script`: the page's own work while the worker's script loads and
 * compiles, which competes with it for the machine's cores, 0137); then the medians per build and, for two
 * builds, in how many rounds the second was usable sooner. `ORCH_INTERLEAVED_ROUNDS` (default 8) rounds.
 */

import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';
import { previewBuild } from './preview-build';
import { summarize } from './report';
import { settledPage, usableAfter, usableProbe } from './usable-probe';

type Moments = Record<string, number>;

// Runs in the page before its scripts: the worker's control, and the page's long tasks from the start.
const probe = `
navigator.serviceWorker?.addEventListener('controllerchange', () => { globalThis.__controlledAt ??= performance.now(); });
globalThis.__longTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) globalThis.__longTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask', buffered: true });
} catch {}
`;

/** The moments printed per visit, in this order; any page mark (`p:*`) follows them. */
const shown = [
  'main script',
  'fcp',
  'w:thread',
  'w:script',
  'w:evaluated',
  'w:built',
  'w:install',
  'w:activate',
  'control',
  'w:serving',
  'first API asked',
  'first API answered',
  'usable',
  'long<script',
];

async function visitMoments(page: Page): Promise<Moments> {
  const moments = (await page.evaluate(`(() => {
    const resources = performance.getEntriesByType('resource');
    const out = {};
    const main = resources.find((r) => /^\\/assets\\/index-.*\\.js$/.test(new URL(r.name).pathname));
    if (main) out['main script'] = main.responseEnd;
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    if (fcp) out.fcp = fcp.startTime;
    for (const mark of performance.getEntriesByType('mark')) out['p:' + mark.name] = mark.startTime;
    if (globalThis.__controlledAt !== undefined) out.control = globalThis.__controlledAt;
    const api = resources.filter((r) => /^\\/(api|apis)(\\/|$|\\?)/.test(new URL(r.name).pathname));
    if (api.length > 0) {
      out['first API asked'] = Math.min(...api.map((r) => r.startTime));
      out['first API answered'] = Math.min(...api.map((r) => r.responseEnd));
    }
    out.usable = globalThis.__usableAt;
    return out;
  })()`)) as Moments;
  const worker = page.context().serviceWorkers()[0];
  if (worker !== undefined) {
    const origin = (await page.evaluate('performance.timeOrigin')) as number;
    const marks = (await worker.evaluate(`[
      ['w:thread', performance.timeOrigin],
      ...performance.getEntriesByType('mark').filter((m) => m.name.startsWith('orch:'))
        .map((m) => ['w:' + m.name.slice(5), performance.timeOrigin + m.startTime]),
    ]`)) as [string, number][];
    for (const [name, at] of marks) moments[name] = at - origin;
  }
  const longTasks = (await page.evaluate('globalThis.__longTasks')) as [number, number][];
  const script = moments['w:script'];
  if (script !== undefined)
    moments['long<script'] = longTasks.reduce(
      (sum, [start, duration]) => sum + Math.max(0, Math.min(start + duration, script) - start),
      0,
    );
  return moments;
}

function line(moments: Moments): string {
  const pageMarks = Object.keys(moments).filter((name) => name.startsWith('p:'));
  return [...shown, ...pageMarks]
    .filter((name) => moments[name] !== undefined)
    .map((name) => `${name} ${(moments[name] as number).toFixed(0)}`)
    .join(' · ');
}

async function main(): Promise<void> {
  const dists = process.argv.slice(2).map((dist) => resolve(dist));
  if (dists.length === 0) throw new Error('usage: npx tsx bench/first-visit-interleaved.ts DIST [DIST…]');
  const rounds = Number(process.env.ORCH_INTERLEAVED_ROUNDS ?? 8);
  const choice = findChromium();
  if (choice === undefined) throw new Error(CHROMIUM_HELP);
  const servers = await Promise.all(dists.map((dist) => previewBuild(dist)));
  const browser = await chromium.launch({ executablePath: choice.executablePath, args: CHROMIUM_ARGS });
  const visits: Moments[][] = dists.map(() => []);
  const label = (i: number) => String.fromCharCode(65 + i);
  try {
    for (let round = 0; round < rounds; round++) {
      const order = dists.map((_, i) => (round % 2 === 0 ? i : dists.length - 1 - i));
      for (const i of order) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
        try {
          const page = await settledPage(context);
          await page.addInitScript({ content: usableProbe });
          await page.addInitScript({ content: probe });
          await usableAfter(page, () => page.goto(servers[i]?.resolvedUrls?.local[0] ?? ''));
          const moments = await visitMoments(page);
          visits[i]?.push(moments);
          process.stdout.write(`round ${round + 1} ${label(i)}: ${line(moments)}\n`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await new Promise<void>((done) => server.httpServer.close(() => done()));
  }
  for (const [i, list] of visits.entries()) {
    const medians: Moments = {};
    for (const name of new Set(list.flatMap((moments) => Object.keys(moments)))) {
      const values = list.map((moments) => moments[name]).filter((v): v is number => v !== undefined);
      if (values.length > 0) medians[name] = summarize(values).p50;
    }
    process.stdout.write(`median ${label(i)} (${dists[i]}): ${line(medians)}\n`);
  }
  const [first, second] = visits;
  if (dists.length === 2 && first !== undefined && second !== undefined) {
    const sooner = second.filter(
      (moments, round) => (moments.usable ?? Infinity) < (first[round]?.usable ?? 0),
    );
    process.stdout.write(`B usable sooner than A in ${sooner.length} of ${rounds} rounds\n`);
  }
}

await main();
