/**
 * `npm test`: every check CI runs, stopping at the first failure with its
 * name and how to rerun it alone. Lint, format and the four typechecks are
 * independent and each single-threaded, so they run side by side (as many at
 * a time as there are cores), their output held and printed whole in step
 * order; the first of them to fail, in that order, is the failure reported.
 * Then unit tests, the production build, and last the browser tests, which
 * need the build and a Chromium, one after the other with their output live.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_HELP, findChromium } from '../e2e/support/chromium';

interface Step {
  name: string;
  bin: string;
  args: string[];
  /** Runs first; a string return is a reason to fail the step without running it. */
  precheck?: () => string | undefined;
  /** Independent of every other step: runs beside the other side-by-side steps, output held. */
  sideBySide?: boolean;
}

interface Outcome {
  exitCode: number;
  seconds: string;
  /** The held output (side-by-side steps only). */
  output?: string;
}

const steps: Step[] = [
  { name: 'lint', bin: 'eslint', args: ['.'], sideBySide: true },
  { name: 'format', bin: 'prettier', args: ['--check', '.'], sideBySide: true },
  { name: 'typecheck core', bin: 'tsc', args: ['-p', 'tsconfig.json'], sideBySide: true },
  { name: 'typecheck node', bin: 'tsc', args: ['-p', 'tsconfig.node.json'], sideBySide: true },
  { name: 'typecheck browser', bin: 'tsc', args: ['-p', 'tsconfig.browser.json'], sideBySide: true },
  { name: 'typecheck worker', bin: 'tsc', args: ['-p', 'tsconfig.worker.json'], sideBySide: true },
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
/** Side-by-side steps still running: stopped when an earlier step's failure ends the run. */
const children = new Set<ChildProcess>();
let passed = 0;
const started = Date.now();

const held = steps.filter((s) => s.sideBySide === true);
const parallel = Math.max(1, availableParallelism());
if (held.length > 0)
  console.log(`\n${held.map((s) => s.name).join(', ')}: side by side, ${parallel} at a time`);
const running = runSideBySide(held, parallel);

for (const step of steps) {
  console.log(`\n▶ ${step.name}: ${step.bin} ${step.args.join(' ')}`);
  let outcome: Outcome;
  const pending = running.get(step);
  if (pending !== undefined) {
    outcome = await pending;
    if (outcome.output !== undefined && outcome.output !== '') process.stdout.write(outcome.output);
  } else {
    const stepStarted = Date.now();
    const refusal = step.precheck?.();
    const exitCode = refusal === undefined ? run(step) : (console.error(refusal), 1);
    outcome = { exitCode, seconds: ((Date.now() - stepStarted) / 1000).toFixed(1) };
  }
  if (outcome.exitCode !== 0) {
    console.error(
      `\n✘ ${step.name} failed (exit ${outcome.exitCode}, ${outcome.seconds}s). Rerun alone: npx ${step.bin} ${step.args.join(' ')}`,
    );
    for (const child of children) child.kill();
    summary(1);
    process.exit(1);
  }
  passed += 1;
  console.log(`✔ ${step.name} (${outcome.seconds}s)`);
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

/** Starts `group` at most `limit` at a time, in order; each step's promise settles with its held output. */
function runSideBySide(group: Step[], limit: number): Map<Step, Promise<Outcome>> {
  const outcomes = new Map<Step, Promise<Outcome>>();
  const starters = new Map<Step, () => void>();
  for (const step of group) {
    outcomes.set(step, new Promise<Outcome>((resolve) => starters.set(step, () => resolve(runHeld(step)))));
  }
  let next = 0;
  const startNext = (): void => {
    const step = group[next++];
    if (step === undefined) return;
    starters.get(step)?.();
    void outcomes.get(step)?.then(startNext);
  };
  for (let i = 0; i < limit; i++) startNext();
  return outcomes;
}

function runHeld(step: Step): Promise<Outcome> {
  const stepStarted = Date.now();
  const seconds = (): string => ((Date.now() - stepStarted) / 1000).toFixed(1);
  const local = join(binDir, step.bin);
  if (!existsSync(local)) {
    const output = `${step.bin} is not installed in node_modules; run npm ci first.\n`;
    return Promise.resolve({ exitCode: 1, seconds: seconds(), output });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // Colours as the tools would print them to this terminal.
    const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env;
    const child = spawn(local, step.args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    children.add(child);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      children.delete(child);
      resolve({ exitCode: code ?? 1, seconds: seconds(), output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

function summary(failed: number): void {
  const skipped = steps.length - passed - failed;
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`\nnpm test took ${minutes} min`);
  console.log(`steps: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
}
