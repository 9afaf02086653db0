/**
 * The browser half of the `scale` section: the built app in Chromium, its
 * store seeded with N ConfigMaps through the sandbox's import endpoint (the
 * state file is built here, from the worker's own export plus the seeded
 * objects, with the history compacted away), then the service worker is
 * stopped as the browser stops an idle one, and the first request after
 * that is timed: it pays for the worker's start over that store. Then
 * creates/s, GET p50, one page of 500 and a full list from the page, and
 * the worker's heap over CDP (after a collection); creates, GETs and a page
 * again once the controllers' start-up lists are done. Last, each
 * per-request figure's floor at the same size: the trivial handler plus the
 * raw IndexedDB step on the server's own database (`x-bench-floor: store`,
 * bench-floor.ts; decision 0125), and creates alternated one by one with the
 * floor's, so that both meet IndexedDB in the same state.
 */

import type { Browser, CDPSession, Page } from 'playwright-core';
import { createMemoryStorage } from '../src/storage/memory/memory-storage';
import type { Figure } from './report';
import { scaleFigures, scaleSizes, seedStore } from './scale';
import { floorFigures } from './scale-floors';
import { attachToWorker } from './worker-target';
import { adminToken, settleOnVersion, startAppInChromium } from './app-in-chromium';

type TargetInfos = { targetInfos: { targetId: string; type: string }[] };

async function workerTargets(cdp: CDPSession): Promise<string[]> {
  const { targetInfos } = (await cdp.send('Target.getTargets')) as TargetInfos;
  return targetInfos.filter((t) => t.type === 'service_worker').map((t) => t.targetId);
}

/** The worker's used JS heap after a collection, in MB. */
async function workerHeapMB(cdp: CDPSession): Promise<number> {
  const worker = await attachToWorker(cdp);
  try {
    await worker.send('HeapProfiler.collectGarbage');
    const { usedSize } = await worker.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return usedSize / 2 ** 20;
  } finally {
    await worker.detach();
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
  getFloor: number;
  pageFloor: number;
  createsFloor: number;
  /** GET p50 and one page again after the later creates. */
  getP50Later: number;
  pageLater: number;
  /** Creates/s alternated one by one with the floor's creates, and the floor's. */
  alternated: number;
  alternatedFloor: number;
}

async function measureInPage(page: Page, token: string, n: number): Promise<PageMeasured> {
  return page.evaluate(
    async ({ token, n, wait }) => {
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
      // `SCALE_SETTLE_MS`: the figures taken this long after the cold start, outside the controllers' start-up.
      // A GET every 2 s meanwhile, or the browser would stop the idle worker (after ~30 s) and start it again.
      for (const until = performance.now() + wait; performance.now() < until;) {
        await timed(`${path}/scale-0`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
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
      // GETs and pages again, now that the controllers' start-up lists are surely done (at 100k the first ones
      // run while the garbage collector still pages through every ConfigMap): other keys, still not in memory.
      const getsLater: number[] = [];
      for (let i = 0; i < 300; i++)
        getsLater.push((await timed(`${path}/scale-${(i * 7919 + 1777) % n}`)).ms);
      const pagesLater: number[] = [];
      for (let i = 0; i < 7; i++) pagesLater.push((await timed(`${path}?limit=500`)).ms);
      // The floors, in the same worker and database: the trivial handler plus the raw IndexedDB step. Other keys
      // than the GETs' (IndexedDB's own cache would have their blocks); creates under a prefix of their own.
      const idb = (globalThis as unknown as { indexedDB: { databases(): Promise<{ name?: string }[]> } })
        .indexedDB;
      const db = (await idb.databases()).find((d) => d.name?.startsWith('orch-sandbox-'))?.name;
      if (db === undefined) throw new Error('no orch-sandbox-* database');
      const floor = (key: string) => ({
        ...headers,
        'x-bench-floor': 'store',
        'x-bench-floor-db': db,
        'x-bench-floor-key': key,
      });
      const floorGets: number[] = [];
      for (let i = 0; i < 300; i++) {
        const name = `scale-${(i * 7919 + 3571) % n}`;
        const r = await timed(`${path}/${name}`, { headers: floor(`/core/configmaps/default/${name}`) });
        if (r.status !== 200) throw new Error(`floor get answered ${r.status}`);
        floorGets.push(r.ms);
      }
      const floorPages: number[] = [];
      for (let i = 0; i < 7; i++)
        floorPages.push(
          (await timed(`${path}?limit=500`, { headers: floor('/core/configmaps/default/') })).ms,
        );
      const t3 = performance.now();
      for (let i = 0; i < creates; i++) {
        const r = await timed(path, {
          method: 'POST',
          headers: floor(''),
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `floor-${i}` } }),
        });
        if (r.status !== 201) throw new Error(`floor create answered ${r.status}`);
      }
      const floorRate = (creates / (performance.now() - t3)) * 1000;
      // Creates and the floor's creates alternated, each timed on its own: both meet IndexedDB in the same state
      // (its own work after a large import or list, e.g. LevelDB compactions, comes and goes within a run).
      let alternated = 0;
      let alternatedFloor = 0;
      for (let i = 0; i < creates / 2; i++) {
        const r = await timed(path, {
          method: 'POST',
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `pair-${i}` } }),
        });
        if (r.status !== 201) throw new Error(`create answered ${r.status}`);
        const f = await timed(path, {
          method: 'POST',
          headers: floor(''),
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `pair-${i}` } }),
        });
        if (f.status !== 201) throw new Error(`floor create answered ${f.status}`);
        alternated += r.ms;
        alternatedFloor += f.ms;
      }
      await timed(path, { method: 'DELETE', headers: floor('') });
      return {
        cold: first.ms,
        settled,
        creates: rate,
        later,
        getP50: median(gets),
        page: median(pages),
        list: median(lists),
        getFloor: median(floorGets),
        pageFloor: median(floorPages),
        createsFloor: floorRate,
        getP50Later: median(getsLater),
        pageLater: median(pagesLater),
        alternated: (creates / 2 / alternated) * 1000,
        alternatedFloor: (creates / 2 / alternatedFloor) * 1000,
      };
    },
    { token, n, wait: Number(process.env.SCALE_SETTLE_MS ?? 0) },
  );
}

async function measureBrowser(browser: Browser, url: string): Promise<Figure[]> {
  const page = await browser.newContext().then((c) => c.newPage());
  // A controlled page that runs no UI, so the app's own requests do not compete inside the worker.
  await settleOnVersion(page, url);
  const token = await adminToken(page);
  const base = await page.evaluate(async () => (await fetch('/sandbox/v1/export')).text());
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
  const section = 'scale, browser (service worker + IndexedDB)';
  const at = (pick: (r: PageMeasured) => [number, number]) =>
    new Map([...results].map(([n, r]) => [n, pick(r)] as const));
  const floors = floorFigures(section, scaleSizes, [
    {
      name: 'GET p50',
      floorName: 'trivial handler + raw IndexedDB get',
      unit: 'ms',
      values: at((r) => [r.getP50, r.getFloor]),
    },
    {
      name: 'GET p50, after the later creates',
      floorName: 'trivial handler + raw IndexedDB get',
      unit: 'ms',
      values: at((r) => [r.getP50Later, r.getFloor]),
    },
    {
      name: 'one page of 500',
      floorName: 'trivial handler + raw getAll of 500',
      unit: 'ms',
      values: at((r) => [r.page, r.pageFloor]),
    },
    {
      name: 'one page of 500, after the later creates',
      floorName: 'trivial handler + raw getAll of 500',
      unit: 'ms',
      values: at((r) => [r.pageLater, r.pageFloor]),
    },
    {
      name: 'creates/s right after the cold start',
      floorName: 'trivial handler + one raw write transaction, idle',
      unit: '/s',
      higherIsBetter: true,
      values: at((r) => [r.creates, r.createsFloor]),
    },
    {
      name: 'creates/s after the other figures',
      floorName: 'trivial handler + one raw write transaction, idle',
      unit: '/s',
      higherIsBetter: true,
      values: at((r) => [r.later, r.createsFloor]),
    },
    {
      name: 'creates/s alternated with the floor',
      floorName: 'trivial handler + one raw write transaction, alternated with the creates',
      unit: '/s',
      higherIsBetter: true,
      values: at((r) => [r.alternated, r.alternatedFloor]),
    },
  ]);
  return [
    ...scaleFigures(
      section,
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
    ),
    ...floors,
  ];
}

export async function runBrowserScale(): Promise<Figure[]> {
  const app = await startAppInChromium('scale: browser', { build: process.env.SCALE_NO_BUILD !== '1' });
  if (app === undefined) return [];
  try {
    return await measureBrowser(app.browser, app.base);
  } finally {
    await app.close();
  }
}
