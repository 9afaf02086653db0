/**
 * `npm test`: every check CI runs, in order, stopping at the first failure
 * with its name and how to rerun it alone. Lint and format first (seconds),
 * then the four typechecks, unit tests, the production build, and last the
 * browser tests, which need the build and a Chromium.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';

interface Step {
  name: string;
  bin: string;
  args: string[];
  /** Runs first; a string return is a reason to fail the step without running it. */
  precheck?: () => string | undefined;
}

const steps: Step[] = [
  { name: 'lint', bin: 'eslint', args: ['.'] },
  { name: 'format', bin: 'prettier', args: ['--check', '.'] },
  { name: 'typecheck core', bin: 'tsc', args: ['-p', 'tsconfig.json'] },
  { name: 'typecheck node', bin: 'tsc', args: ['-p', 'tsconfig.node.json'] },
  { name: 'typecheck browser', bin: 'tsc', args: ['-p', 'tsconfig.browser.json'] },
  { name: 'typecheck worker', bin: 'tsc', args: ['-p', 'tsconfig.worker.json'] },
  { name: 'unit tests', bin: 'vitest', args: ['run'] },
  { name: 'build', bin: 'vite', args: ['build'] },
  {
    name: 'browser tests',
    bin: 'playwright',
    args: ['test'],
    precheck: () => {
      const browser = findChromium();
      if (browser === undefined) return CHROMIUM_HELP;
      console.log(`Chromium: ${browser.executablePath} (${browser.source})`);
      return undefined;
    },
  },
];

const binDir = join(process.cwd(), 'node_modules', '.bin');
let passed = 0;
const started = Date.now();

for (const step of steps) {
  console.log(`\n▶ ${step.name}: ${step.bin} ${step.args.join(' ')}`);
  const stepStarted = Date.now();
  const refusal = step.precheck?.();
  const exitCode = refusal === undefined ? run(step) : (console.error(refusal), 1);
  const seconds = ((Date.now() - stepStarted) / 1000).toFixed(1);
  if (exitCode !== 0) {
    console.error(
      `\n✘ ${step.name} failed (exit ${exitCode}, ${seconds}s). Rerun alone: npx ${step.bin} ${step.args.join(' ')}`,
    );
    summary(1);
    process.exit(1);
  }
  passed += 1;
  console.log(`✔ ${step.name} (${seconds}s)`);
}
summary(0);

function run(step: Step): number {
  const local = join(binDir, step.bin);
  if (!existsSync(local)) {
    console.error(`${step.bin} is not installed in node_modules; run npm ci first.`);
    return 1;
  }
  const result = spawnSync(local, step.args, { stdio: 'inherit' });
  if (result.error !== undefined) console.error(result.error.message);
  return result.status ?? 1;
}

function summary(failed: number): void {
  const skipped = steps.length - passed - failed;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`\nnpm test took ${minutes} min`);
  console.log(`steps: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
}
