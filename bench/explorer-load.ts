/**
 * What the explorer costs the server it watches: sequential ConfigMap
 * creates per second from a page that shows no UI (the worker answers
 * /version), once with no other page open and once while a second page of
 * the same browser context shows the explorer live on configmaps in the
 * namespace being written to. Both pages share one service worker, so the
 * explorer's watch, its renders and its relists compete with the creates.
 * The rounds alternate (closed, open, closed, open) so that a store grown
 * by earlier rounds weighs on both sides alike; the explorer page's long
 * tasks are counted with a PerformanceObserver.
 */

import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Figure } from './report';
import { adminToken, settleOnVersion, startAppInChromium } from './app-in-chromium';

const CREATES = 400;
const ROUNDS = 2;

interface PageGlobals {
  __longTasks?: { count: number; total: number };
}

/** Collects the page's long tasks from its first script on (given as text: it runs before the app). */
const LONG_TASKS = `
globalThis.__longTasks = { count: 0, total: 0 };
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      globalThis.__longTasks.count += 1;
      globalThis.__longTasks.total += entry.duration;
    }
  }).observe({ type: 'longtask', buffered: true });
} catch {}
`;

async function createRate(page: Page, namespace: string, prefix: string, token: string): Promise<number> {
  return page.evaluate(
    async ({ namespace, prefix, token, creates }) => {
      const path = `/api/v1/namespaces/${namespace}/configmaps`;
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      const t = performance.now();
      for (let i = 0; i < creates; i++) {
        const res = await fetch(path, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            // Zero-padded so that the server's name order is the creation order: new rows land at the end.
            metadata: { name: `${prefix}-${String(i).padStart(5, '0')}`, labels: { app: 'bench' } },
            data: { key: `value-${i}`, other: 'x'.repeat(64) },
          }),
        });
        if (res.status !== 201) throw new Error(`create answered ${res.status}`);
        await res.arrayBuffer();
      }
      return (creates / (performance.now() - t)) * 1000;
    },
    { namespace, prefix, token, creates: CREATES },
  );
}

async function createNamespace(page: Page, name: string, token: string): Promise<void> {
  await page.evaluate(
    async ({ name, token }) => {
      const res = await fetch('/api/v1/namespaces', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
      });
      if (res.status !== 201) throw new Error(`namespace create answered ${res.status}`);
    },
    { name, token },
  );
}

/** Opens the explorer on the namespace's configmaps and waits until its table is live. */
async function openExplorer(context: BrowserContext, base: string, namespace: string): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript({ content: LONG_TASKS });
  await page.goto(`${base}/#/explorer?kind=v1/configmaps&ns=${namespace}`);
  await page.locator('[data-usable="true"]').waitFor({ timeout: 60_000 });
  return page;
}

/** The page's main-thread time so far, in seconds, by what it was spent on (CDP Performance metrics). */
async function busyTime(session: CDPSession): Promise<{ task: number; script: number; layout: number }> {
  const { metrics } = (await session.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return {
    task: metric('TaskDuration'),
    script: metric('ScriptDuration'),
    layout: metric('LayoutDuration') + metric('RecalcStyleDuration'),
  };
}

/** How many objects the explorer's table says it holds (aria-rowcount counts the header row too). */
async function shownRows(page: Page): Promise<number> {
  const table = page.locator('table.objects');
  if ((await table.count()) === 0) return 0;
  const count = await table.getAttribute('aria-rowcount');
  return count === null ? page.locator('table.objects tbody tr th[scope="row"]').count() : Number(count) - 1;
}

export async function runExplorerLoadBench(): Promise<Figure[]> {
  const app = await startAppInChromium('explorer');
  if (app === undefined) return [];
  const { base, browser } = app;
  try {
    const context = await browser.newContext();
    // tsx compiles with keepNames: functions handed to page.evaluate call a `__name` helper the page lacks.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const driver = await context.newPage();
    await settleOnVersion(driver, base);
    // As the sandbox's administrator, as the UI acts (a request without credentials is anonymous).
    const token = await adminToken(driver);

    const closed: number[] = [];
    const open: number[] = [];
    const longTasks = { count: 0, total: 0 };
    const busy = { task: 0, script: 0, layout: 0 };
    // One namespace for every round: the list the explorer shows grows round by round (to
    // ROUNDS × 2 × CREATES), and the store behind both kinds of round grows alike.
    const namespace = 'bench-explorer';
    await createNamespace(driver, namespace, token);
    for (let round = 0; round < ROUNDS; round++) {
      closed.push(await createRate(driver, namespace, `closed${round}`, token));
      const explorer = await openExplorer(context, base, namespace);
      const session = await context.newCDPSession(explorer);
      await session.send('Performance.enable');
      const before = await busyTime(session);
      open.push(await createRate(driver, namespace, `open${round}`, token));
      const after = await busyTime(session);
      busy.task += after.task - before.task;
      busy.script += after.script - before.script;
      busy.layout += after.layout - before.layout;
      const expected = (round * 2 + 2) * CREATES;
      const deadline = Date.now() + 60_000;
      // Namespaces also hold the controller-made kube-root-ca.crt.
      while ((await shownRows(explorer)) < expected) {
        if (Date.now() > deadline)
          throw new Error(`the explorer shows ${await shownRows(explorer)} of ${expected} objects`);
        await explorer.waitForTimeout(100);
      }
      const tasks = await explorer.evaluate(() => (globalThis as unknown as PageGlobals).__longTasks);
      longTasks.count += tasks?.count ?? 0;
      longTasks.total += tasks?.total ?? 0;
      await explorer.close();
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    process.stderr.write(
      `explorer: closed ${closed.map((x) => x.toFixed(0)).join(', ')} /s; open ${open
        .map((x) => x.toFixed(0))
        .join(', ')} /s\n`,
    );
    const section = 'explorer under write load (browser)';
    return [
      {
        section,
        name: 'creates/s with explorer open on configmaps',
        value: mean(open),
        unit: '/s',
        floor: mean(closed),
        floorName: 'same, explorer closed',
        higherIsBetter: true,
      },
      {
        section,
        name: `explorer page main-thread time while ${CREATES} creates`,
        value: (busy.task / ROUNDS) * 1000,
        unit: 'ms',
      },
      {
        section,
        name: `  of which script`,
        value: (busy.script / ROUNDS) * 1000,
        unit: 'ms',
      },
      {
        section,
        name: `  of which style and layout`,
        value: (busy.layout / ROUNDS) * 1000,
        unit: 'ms',
      },
      {
        section,
        name: `explorer page long tasks per ${CREATES} creates`,
        value: longTasks.count / ROUNDS,
        unit: '',
      },
      {
        section,
        name: `explorer page long-task time per ${CREATES} creates`,
        value: longTasks.total / ROUNDS,
        unit: 'ms',
      },
    ];
  } finally {
    await app.close();
  }
}
