/**
 * `npm run bench -- timeline`: where a first visit's time goes, from
 * navigation to the first usable screen, as the page sees it (its resource
 * timings and the moment the worker takes control) in fresh Chromium
 * contexts, then one reload, with the worker's own moments on a first visit
 * (its marks and lazy scripts). It prints a timeline per run and reports the
 * medians as figures without a floor (the `ui` section holds the ratios);
 * `ORCH_TIMELINE_DIST` points it at another build's `dist/` to compare two.
 */

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';
import { summarize, type Figure } from './report';
import { previewBuild } from './preview-build';
import { waitForReadyz } from './started';
import { settledPage, usableAfter, usableProbe } from './usable-probe';

const section = 'first visit timeline (Chromium)';
const runs = Number(process.env.ORCH_TIMELINE_RUNS ?? 5);
const verbose = process.env.ORCH_TIMELINE_VERBOSE === '1';

// Runs in the page before its scripts: the moment the worker takes control (usable-probe.ts: the usable screen).
const probe = `
navigator.serviceWorker?.addEventListener('controllerchange', () => { globalThis.__controlledAt ??= performance.now(); });
`;

interface Moments {
  [name: string]: number;
}

export async function runTimelineBench(): Promise<Figure[]> {
  const choice = findChromium();
  if (choice === undefined) {
    process.stderr.write(`${CHROMIUM_HELP}\ntimeline section skipped: no Chromium\n`);
    return [];
  }
  const dist = process.env.ORCH_TIMELINE_DIST;
  if (dist === undefined)
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
      stdio: 'inherit',
    });
  const outDir = resolve(dist ?? 'dist');
  const server = await previewBuild(outDir);
  const url = server.resolvedUrls?.local[0] ?? '';
  const browser = await chromium.launch({ executablePath: choice.executablePath, args: CHROMIUM_ARGS });
  const cold: Moments[] = [];
  const warm: Moments[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      try {
        const page = await settledPage(context);
        await page.addInitScript({ content: usableProbe });
        await page.addInitScript({ content: probe });
        await usableAfter(page, () => page.goto(url));
        cold.push({ ...(await moments(page)), ...(await workerMarks(page)) });
        if (verbose) process.stdout.write(`first visit requests:\n${await requests(page)}\n`);
        await waitForReadyz(page);
        (cold[run] as Moments)['readyz passes'] = (await page.evaluate('globalThis.__readyAt')) as number;
        await usableAfter(page, () => page.reload());
        warm.push(await moments(page));
        if (verbose) process.stdout.write(`reload requests:\n${await requests(page)}\n`);
      } finally {
        await context.close();
      }
      process.stdout.write(
        `first visit ${run + 1}: ${line(cold[run])}\nreload      ${run + 1}: ${line(warm[run])}\n`,
      );
    }
  } finally {
    await browser.close();
    await new Promise<void>((done) => server.httpServer.close(() => done()));
  }
  const figures: Figure[] = [];
  for (const [label, list] of [
    ['first visit', cold],
    ['reload', warm],
  ] as const) {
    for (const name of Object.keys(list[0] ?? {})) {
      const values = list.map((m) => m[name]).filter((v): v is number => v !== undefined);
      if (values.length > 0)
        figures.push({ section, name: `${label}: ${name} (p50)`, value: summarize(values).p50, unit: 'ms' });
    }
  }
  return figures;
}

function line(m: Moments | undefined): string {
  return Object.entries(m ?? {})
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(' · ');
}

/** The page's moments, in ms from navigation start, once it is usable. */
async function moments(page: Page): Promise<Moments> {
  return (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const first = (test) => resources.find((r) => test(new URL(r.name).pathname + new URL(r.name).search));
    const out = { html: nav.responseEnd };
    const main = first((p) => /^\\/assets\\/index-.*\\.js$/.test(p));
    if (main) out['main script'] = main.responseEnd;
    if (globalThis.__controlledAt !== undefined) out['worker controls'] = globalThis.__controlledAt;
    const ids = first((p) => p.startsWith('/sandbox/v1/identities'));
    if (ids) { out['identities asked'] = ids.startTime; out['identities answered'] = ids.responseEnd; }
    const api = resources.filter((r) => /^\\/(api|apis)(\\/|$|\\?)/.test(new URL(r.name).pathname));
    if (api.length > 0) {
      out['first API asked'] = Math.min(...api.map((r) => r.startTime));
      out['first API answered'] = Math.min(...api.map((r) => r.responseEnd));
    }
    out['API requests before usable'] = api.filter((r) => r.startTime < globalThis.__usableAt).length;
    out.usable = globalThis.__usableAt;
    return out;
  })()`)) as Moments;
}

/** Every request the page made (ORCH_TIMELINE_VERBOSE=1): start → end, path. */
async function requests(page: Page): Promise<string> {
  return (await page.evaluate(`performance.getEntriesByType('resource').map((r) =>
    r.startTime.toFixed(0) + ' → ' + r.responseEnd.toFixed(0) + '  ' + new URL(r.name).pathname + new URL(r.name).search).join('\\n')`)) as string;
}

/**
 * The worker's own moments, in ms from the page's navigation start: its marks (`orch:*`: script evaluated,
 * install, activate, and the server's start steps, `ApiServerOptions.startStep`) and when each lazy script
 * it fetched arrived.
 */
async function workerMarks(page: Page): Promise<Moments> {
  const worker = page.context().serviceWorkers()[0];
  if (worker === undefined) return {};
  const origin = (await page.evaluate('performance.timeOrigin')) as number;
  const marks = (await worker.evaluate(`[
    ['w:thread', performance.timeOrigin],
    ...performance.getEntriesByType('mark').filter((m) => m.name.startsWith('orch:'))
      .map((m) => ['w:' + m.name.slice(5), performance.timeOrigin + m.startTime]),
    ...performance.getEntriesByType('resource').filter((r) => new URL(r.name).pathname.startsWith('/sw-lazy/'))
      .map((r) => ['w:got ' + new URL(r.name).pathname.slice(9).replace(/\\.js$/, ''), performance.timeOrigin + r.responseEnd]),
  ]`)) as [string, number][];
  return Object.fromEntries(marks.map(([name, at]) => [name, at - origin]));
}
