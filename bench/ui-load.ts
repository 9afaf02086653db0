/**
 * UI load figures, measured in Chromium against the built app beside the
 * floor: an empty Vite React app built at bench time from a minimal
 * template (the same React, the same Vite and plugin, one component), so a
 * ratio says what the sandbox costs on top of React itself. Sizes are the
 * gzip (level 6) of what the page loads before its first usable screen
 * (HTML, JS, CSS; the API paths the worker answers are not files), plus the
 * service worker script (the API server, without the libraries it loads
 * when first needed, which are counted apart) and the shell it precaches.
 * Times run from navigation start to the first usable screen: for the app,
 * the explorer with discovery read and its list live (`[data-usable]`); for
 * the floor, its component rendered. A first visit installs the worker and
 * starts the server; a reload finds both in place (the server ready, its
 * post-start writes done, see started.ts). Each time is the median
 * of several runs in fresh browser contexts.
 */

import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { chromium, type Browser } from 'playwright-core';
import { build, type PreviewServer } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';
import { summarize, type Figure } from './report';
import { precompressFiles } from '../scripts/precompressed';
import { previewBuild } from './preview-build';
import { waitForReadyz } from './started';
import { settledPage, usableAfter, usableProbe } from './usable-probe';

const runs = 5;
const section = 'ui load (Chromium)';
const floorName = 'empty Vite React app';

interface Served {
  url: string;
  dir: string;
  server: PreviewServer;
}

export async function runUiLoadBench(): Promise<Figure[]> {
  const browserChoice = findChromium();
  if (browserChoice === undefined) {
    process.stderr.write(`${CHROMIUM_HELP}\nui section skipped: no Chromium\n`);
    return [];
  }
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  const floorDir = await buildEmptyApp();
  const app = await serve(resolve('dist'), false);
  const floor = await serve(floorDir, true);
  const browser = await chromium.launch({
    executablePath: browserChoice.executablePath,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const appLoad = await measure(browser, app.url, true);
    const floorLoad = await measure(browser, floor.url, false);
    const appPage = gzipOf(app.dir, appLoad.files);
    const floorPage = gzipOf(floor.dir, floorLoad.files);
    const worker = gzipOf(app.dir, ['/sw.js']);
    // The build's `.gz` twins are the same files again, served compressed (scripts/precompressed.ts).
    const files = listFiles(app.dir).filter(
      (f) => f !== '/sw.js' && !f.endsWith('.map') && !f.endsWith('.gz'),
    );
    const lazy = gzipOf(
      app.dir,
      files.filter((f) => f.startsWith('/sw-lazy/')),
    );
    const shell = gzipOf(app.dir, files);
    const kib = (bytes: number) => bytes / 1024;
    return [
      {
        section,
        name: 'initial load, page (HTML+JS+CSS, gzip)',
        value: kib(appPage),
        unit: 'KiB',
        floor: kib(floorPage),
        floorName,
      },
      {
        section,
        name: 'first visit, page + worker script (gzip)',
        value: kib(appPage + worker),
        unit: 'KiB',
        floor: kib(floorPage),
        floorName,
      },
      {
        section,
        name: 'worker script on the path to the first response (gzip)',
        value: kib(worker),
        unit: 'KiB',
      },
      {
        section,
        name: "worker's lazy libraries, loaded when first needed (gzip)",
        value: kib(lazy),
        unit: 'KiB',
      },
      { section, name: 'shell precached after activation (gzip)', value: kib(shell), unit: 'KiB' },
      {
        section,
        name: 'first usable screen, first visit (p50)',
        value: appLoad.cold,
        unit: 'ms',
        floor: floorLoad.cold,
        floorName,
      },
      {
        section,
        name: 'first usable screen, reload (p50)',
        value: appLoad.warm,
        unit: 'ms',
        floor: floorLoad.warm,
        floorName,
      },
    ];
  } finally {
    await browser.close();
    await Promise.all(
      [app, floor].map((s) => new Promise<void>((done) => s.server.httpServer.close(() => done()))),
    );
    rmSync(floorDir, { recursive: true, force: true });
  }
}

/** The floor: a minimal React app (the template `npm create vite` makes, stripped to one component). */
async function buildEmptyApp(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'orch-floor-'));
  mkdirSync(join(root, 'src'));
  // The template's dependencies resolve from this repository's node_modules.
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <meta name="viewport" content="width=device-width, initial-scale=1.0" />\n    <title>Vite + React</title>\n  </head>\n  <body>\n    <div id="root"></div>\n    <script type="module" src="/src/main.jsx"></script>\n  </body>\n</html>\n',
  );
  writeFileSync(
    join(root, 'src/main.jsx'),
    "import { StrictMode } from 'react';\nimport { createRoot } from 'react-dom/client';\n\nfunction App() {\n  return <h1 data-usable=\"true\">Vite + React</h1>;\n}\n\ncreateRoot(document.getElementById('root')).render(\n  <StrictMode>\n    <App />\n  </StrictMode>,\n);\n",
  );
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(root, 'dist') },
  });
  // Served as the app is: precompressed (the app's build does the same, vite.config.ts).
  precompressFiles(join(root, 'dist'));
  return join(root, 'dist');
}

async function serve(dir: string, floor: boolean): Promise<Served> {
  const server = await previewBuild(dir, floor ? resolve(dir, '..') : process.cwd());
  return { url: server.resolvedUrls?.local[0] ?? '', dir, server };
}

/** Median times of first visits (fresh contexts) and reloads, and the files a first visit loads. */
async function measure(
  browser: Browser,
  url: string,
  hasWorker: boolean,
): Promise<{ cold: number; warm: number; files: string[] }> {
  const cold: number[] = [];
  const warm: number[] = [];
  let files: string[] = [];
  const origin = new URL(url).origin;
  for (let run = 0; run < runs; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const page = await settledPage(context);
      await page.addInitScript({ content: usableProbe });
      const loaded: string[] = [];
      page.on('response', (response) => {
        const target = new URL(response.url());
        // Files only: the worker answers the API paths, and sw.js is the worker's own script, counted apart.
        if (target.origin === origin && !isApiPath(target.pathname) && target.pathname !== '/sw.js')
          loaded.push(target.pathname === '/' ? '/index.html' : target.pathname);
      });
      cold.push(await usableAfter(page, () => page.goto(url)));
      if (run === 0) files = [...new Set(loaded)];
      if (hasWorker) {
        await page.waitForFunction('navigator.serviceWorker.controller !== null');
        await waitForReadyz(page);
      }
      warm.push(await usableAfter(page, () => page.reload()));
    } finally {
      await context.close();
    }
  }
  return { cold: summarize(cold).p50, warm: summarize(warm).p50, files };
}

function isApiPath(pathname: string): boolean {
  return [
    '/api',
    '/apis',
    '/version',
    '/openapi',
    '/healthz',
    '/livez',
    '/readyz',
    '/metrics',
    '/sandbox',
  ].some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

function gzipOf(dir: string, files: string[]): number {
  return files.reduce((sum, file) => sum + gzipSync(readFileSync(join(dir, file)), { level: 6 }).length, 0);
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = `${prefix}/${entry.name}`;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}
