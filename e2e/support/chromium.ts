/**
 * Which Chromium the browser tests run: `CHROMIUM_PATH` if set, else
 * Playwright's own download when installed, else Debian's `/usr/bin/chromium`.
 * Shared by `playwright.config.ts` and `scripts/test-all.ts`, so that both
 * give the same answer and the same instruction when there is none.
 */

import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export interface ChromiumChoice {
  executablePath: string;
  source: 'CHROMIUM_PATH' | 'playwright' | 'system';
}

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_HELP = [
  'No Chromium found for the browser tests. Install one of:',
  '  sudo apt-get install chromium          (Debian/Ubuntu: /usr/bin/chromium)',
  '  npx playwright install chromium        (Playwright’s own build)',
  'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
].join('\n');

export function findChromium(): ChromiumChoice | undefined {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv !== undefined && fromEnv !== '') {
    return existsSync(fromEnv) ? { executablePath: fromEnv, source: 'CHROMIUM_PATH' } : undefined;
  }
  const bundled = playwrightChromium();
  if (bundled !== undefined && existsSync(bundled)) return { executablePath: bundled, source: 'playwright' };
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: 'system' };
  return undefined;
}

/**
 * Flags for a closed network: without the last five Chromium keeps trying to
 * reach Google services (updates, sync, field trials) and floods the sandbox.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}
