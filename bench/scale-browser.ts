/**
 * The browser half of the `scale` section: the built app in Chromium, its
 * store seeded with N ConfigMaps through the sandbox's import endpoint (the
 * state file is built here, from the worker's own export plus the seeded
 * objects, with the history compacted away), then the service worker is
 * stopped as the browser stops an idle one, and the first request after
 * that is timed: it pays for the worker's start over that store. Then
 * creates/s, GET p50, one page of 500 and a full list from the page, and
 * the worker's heap over CDP (after a collection).
 */

import { execFileSync } from 'node:child_process';
import { preview } from 'vite';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Figure } from './report';
import { scaleFigures, scaleSizes, seedStore } from './scale';

interface PageGlobals {
  navigator: { serviceWorker: { controller: unknown } };
}

/** A CDP session to one target over the browser session (non-flat, so Playwright's CDPSession carries it). */
class TargetSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly browserSession: CDPSession,
    private readonly sessionId: string,
  ) {
    browserSession.on('Target.receivedMessageFromTarget', (event) => {
      if (event.sessionId !== this.sessionId) return;
      const message = JSON.parse(event.message) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (waiting === undefined || message.id === undefined) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    const reply = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
    void this.browserSession.send('Target.sendMessageToTarget', {
      sessionId: this.sessionId,
      message: JSON.stringify({ id, method, params }),
    });
    return reply;
  }
}

type TargetInfos = { targetInfos: { targetId: string; type: string }[] };

async function workerTargets(cdp: CDPSession): Promise<string[]> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as TargetInfos;
  return targetInfos.filter((t) => t.type === 'service_worker').map((t) => t.targetId);
}

/** The worker's used JS heap after a collection, in MB. */
async function workerHeapMB(cdp: CDPSession): Promise<number> {
  const [targetId] = await workerTargets(cdp);
  if (targetId === undefined) throw new Error('no service worker target');
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: false })) as {
    sessionId: string;
  };
  const worker = new TargetSession(cdp, sessionId);
  try {
    await worker.send('HeapProfiler.collectGarbage');
    const { usedSize } = await worker.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return usedSize / 2 ** 20;
  } finally {
    await cdp.send('Target.detachFromTarget', { sessionId });
  }
}

/** Stops the service worker as the browser stops an idle one, and waits until it is gone. */
async function stopWorker(page: Page, cdp: CDPSession): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send('ServiceWorker.enable');
  await session.send('ServiceWorker.stopAllWorkers');
  for (let i = 0; i < 200 && (await workerTargets(cdp)).length > 0; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  await session.detach();
}

/** The state file of the worker's current state plus `n` seeded ConfigMaps, history compacted. */
async function seededState(base: string, n: number): Promise<string> {
  const store = createMemoryStorage();
  await store.importState(new Blob([base]));
  await seedStore(store, 0, n);
  await store.compact(await store.currentRevision());
  return (await store.exportState()).text();
}

interface PageMeasured {
  cold: number;
  settled: number;
  later: number;
  creates: number;
  getP50: number;
  page: number;
  list: number;
}

async function measureInPage(page: Page, token: string, n: number): Promise<PageMeasured> {
  return page.evaluate(
    async ({ token, n }) => {
      const path = '/api/v1/namespaces/default/configmaps';
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const timed = async (url: string, init: RequestInit = {}) => {
        const t = performance.now();
        const res = await fetch(url, { headers, ...init });
        await res.arrayBuffer();
        return { ms: performance.now() - t, status: res.status };
      };
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1] ?? NaN;
      const first = await timed(`${path}/scale-0`);
      if (first.status !== 200) throw new Error(`first request answered ${first.status}`);
      // The worker's own start-up work (the controllers' informers paging through their collections) goes on
      // after the first answer; the per-request figures are taken once GETs are quick again.
      const settleFrom = performance.now();
      for (let quick = 0; quick < 5 && performance.now() - settleFrom < 120_000;) {
        quick = (await timed(`${path}/scale-0`)).ms < 25 ? quick + 1 : 0;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const settled = performance.now() - settleFrom;
      const creates = 200;
      const t = performance.now();
      for (let i = 0; i < creates; i++) {
        const r = await timed(path, {
          method: 'POST',
          body: JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `new-${i}`, labels: { app: 'scale' } },
            data: { key: `value-${i}`, other: 'x'.repeat(64) },
          }),
        });
        if (r.status !== 201) throw new Error(`create answered ${r.status}`);
      }
      const rate = (creates / (performance.now() - t)) * 1000;
      const gets: number[] = [];
      for (let i = 0; i < 300; i++) gets.push((await timed(`${path}/scale-${(i * 7919) % n}`)).ms);
      const pages: number[] = [];
      for (let i = 0; i < 7; i++) pages.push((await timed(`${path}?limit=500`)).ms);
      const lists: number[] = [];
      for (let i = 0; i < (n >= 100_000 ? 1 : 3); i++) lists.push((await timed(path)).ms);
      // Again once the rest is done: the first run may still share the worker with the controllers' start-up lists.
      const t2 = performance.now();
      for (let i = 0; i < creates; i++) {
        const r = await timed(path, {
          method: 'POST',
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `later-${i}` } }),
        });
        if (r.status !== 201) throw new Error(`create answered ${r.status}`);
      }
      const later = (creates / (performance.now() - t2)) * 1000;
      return {
        cold: first.ms,
        settled,
        creates: rate,
        later,
        getP50: median(gets),
        page: median(pages),
        list: median(lists),
      };
    },
    { token, n },
  );
}

async function measureBrowser(browser: Browser, url: string): Promise<Figure[]> {
  const page = await browser.newContext().then((c) => c.newPage());
  // tsx compiles with keepNames: functions handed to page.evaluate call a `__name` helper the page lacks.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.goto(url);
  await page.waitForFunction(
    () => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null,
    undefined,
    { timeout: 30_000 },
  );
  // A controlled page that runs no UI, so the app's own requests do not compete inside the worker.
  await page.goto(`${url.replace(/\/$/, '')}/version`);
  const { token, base } = await page.evaluate(async () => {
    const listed = (await (await fetch('/sandbox/v1/identities')).json()) as {
      items: { name: string; token?: string }[];
    };
    const base = await (await fetch('/sandbox/v1/export')).text();
    return { token: listed.items.find((i) => i.name === 'admin')?.token ?? '', base };
  });
  const cdp = await browser.newBrowserCDPSession();
  const results = new Map<number, PageMeasured & { heapMB: number }>();
  for (const n of scaleSizes) {
    const t = performance.now();
    const state = await seededState(base, n);
    const status = await page.evaluate(
      async (body) => (await fetch('/sandbox/v1/import', { method: 'POST', body })).status,
      state,
    );
    if (status !== 200) throw new Error(`import answered ${status}`);
    process.stderr.write(
      `scale: browser seeded with ${n} objects (${(state.length / 2 ** 20).toFixed(1)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
    );
    await stopWorker(page, cdp);
    const measured = await measureInPage(page, token, n);
    results.set(n, { ...measured, heapMB: await workerHeapMB(cdp) });
  }
  await page.context().close();
  return scaleFigures(
    'scale, browser (service worker + IndexedDB)',
    scaleSizes,
    new Map(
      [...results].map(([n, r]) => [
        n,
        {
          creates: r.creates,
          getP50: r.getP50,
          page: r.page,
          list: r.list,
          cold: r.cold,
          busy: r.settled,
          createsLater: r.later,
          workerHeapMB: r.heapMB,
        },
      ]),
    ),
  );
}

export async function runBrowserScale(): Promise<Figure[]> {
  const choice = findChromium();
  if (choice === undefined) {
    process.stderr.write(`${CHROMIUM_HELP}\nscale: browser skipped: no Chromium\n`);
    return [];
  }
  if (process.env.SCALE_NO_BUILD !== '1')
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
      stdio: 'inherit',
    });
  const server = await preview({ preview: { port: 0, host: '127.0.0.1' }, logLevel: 'warn' });
  const browser = await chromium.launch({
    executablePath: choice.executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    return await measureBrowser(browser, server.resolvedUrls?.local[0] ?? '');
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  }
}
