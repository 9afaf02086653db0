/**
 * What the browser benches share: the built app served by `vite preview`,
 * headless Chromium, and a page the service worker controls that runs no UI
 * (the worker answers `/version`), so the app's own watches do not compete
 * with a benchmark inside the same worker.
 */

import { execFileSync } from 'node:child_process';
import { preview, type Plugin } from 'vite';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';

interface PageGlobals {
  navigator: { serviceWorker: { controller: unknown } };
}

export interface AppInChromium {
  /** The app's URL, without a trailing slash. */
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Builds the app (`env` adds build variables; `build: false` keeps dist/), serves it and starts Chromium;
 * undefined, with the reason printed, when there is no Chromium.
 */
export async function startAppInChromium(
  section: string,
  options: { env?: Record<string, string>; build?: boolean } = {},
): Promise<AppInChromium | undefined> {
  const choice = findChromium();
  if (choice === undefined) {
    process.stderr.write(`${CHROMIUM_HELP}\n${section} section skipped: no Chromium\n`);
    return undefined;
  }
  if (options.build !== false)
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
      stdio: 'inherit',
      env: { ...process.env, ...options.env },
    });
  const server = await preview({
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'warn',
    plugins: [isolatedPage],
  });
  const browser = await chromium.launch({
    executablePath: choice.executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  return {
    base: (server.resolvedUrls?.local[0] ?? '').replace(/\/$/, ''),
    browser,
    close: async () => {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    },
  };
}

/**
 * A page that runs no UI and is cross-origin isolated (COOP same-origin + COEP require-corp), served by the
 * preview server at `ISOLATED_PAGE`: the worker sends that path to the network as any path it does not know.
 * An isolated page's `performance.now()` has a 5 µs step where another page's is coarsened to 100 µs, which
 * is the whole gap a GET's ratio to its floor is judged by (decision 0104).
 */
export const ISOLATED_PAGE = '/bench-isolated';
const isolatedPage: Plugin = {
  name: 'bench-isolated-page',
  configurePreviewServer(server) {
    server.middlewares.use((req, res, next) => {
      if (req.url !== ISOLATED_PAGE) {
        next();
        return;
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cross-origin-opener-policy', 'same-origin');
      res.setHeader('cross-origin-embedder-policy', 'require-corp');
      res.setHeader('cache-control', 'no-store');
      res.end('<!doctype html><title>bench</title>');
    });
  },
};

/** Waits until the worker controls `page` (opened on the app), then moves it to `/version`, which runs no UI. */
export async function settleOnVersion(page: Page, base: string): Promise<void> {
  // tsx compiles with keepNames: functions handed to page.evaluate call a `__name` helper the page lacks.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.goto(base);
  await page.waitForFunction(
    () => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null,
    undefined,
    { timeout: 30_000 },
  );
  await page.goto(`${base}/version`);
}

/** The sandbox administrator's token, as the UI acts (a request without credentials is anonymous). */
export function adminToken(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const listed = (await (await fetch('/sandbox/v1/identities')).json()) as {
      items: { name: string; token?: string }[];
    };
    return listed.items.find((i) => i.name === 'admin')?.token ?? '';
  });
}
