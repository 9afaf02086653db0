/**
 * Browser tests (e2e/) against the built app in `dist/`, served by
 * `vite preview` on a fixed port. Chromium is Playwright's own when
 * installed, else Debian's; with neither, the run stops with an install
 * instruction. One worker: CI has two cores and every test already gets a
 * fresh browser context (its own service worker and IndexedDB).
 */

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_HELP, findChromium } from './e2e/support/chromium';

// E2E_PORT lets two checkouts run their suites side by side: outside CI an existing server on the port is
// reused, which would otherwise be the other checkout's build.
const PORT = Number(process.env['E2E_PORT'] ?? 4317);
const BASE_URL = `http://127.0.0.1:${PORT}`;

const browser = findChromium();
if (browser === undefined) {
  console.error(CHROMIUM_HELP);
  throw new Error('no Chromium for the browser tests (see the instruction above)');
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 720 },
    screenshot: 'on',
    trace: 'retain-on-failure',
    serviceWorkers: 'allow',
    launchOptions: { executablePath: browser.executablePath, args: CHROMIUM_ARGS },
  },
  webServer: {
    // No npx wrapper: Playwright stops the server by its process, and npx would leave vite running.
    command: `node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `${BASE_URL}/index.html`,
    reuseExistingServer: !process.env['CI'],
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
