/**
 * The differential kubectl harness from the command line.
 *
 *   npx tsx scripts/kubectl-diff.ts record [scenario…]    run the real kubectl v1.27 and store its outputs
 *   npx tsx scripts/kubectl-diff.ts compare [scenario…]   run ours and print every step that differs
 *
 * `record` rewrites test/kubectl-diff/recorded.json (only the named scenarios
 * when some are named), which the differential test compares against on a
 * machine without kubectl.1.27.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  findRealKubectl,
  ourRunner,
  realRunner,
  runScenario,
  type StepOutput,
} from '../test/kubectl-diff/harness';
import { scenarios } from '../test/kubectl-diff/steps';

const recordedPath = join(import.meta.dirname, '..', 'test', 'kubectl-diff', 'recorded.json');

function readRecorded(): Record<string, StepOutput[]> {
  try {
    return JSON.parse(readFileSync(recordedPath, 'utf8')) as Record<string, StepOutput[]>;
  } catch {
    return {};
  }
}

async function main(): Promise<void> {
  const [mode, ...names] = process.argv.slice(2);
  const chosen = scenarios.filter((s) => names.length === 0 || names.includes(s.name));
  if (mode === 'record') {
    const binary = findRealKubectl();
    if (binary === undefined) throw new Error('kubectl.1.27 is not on PATH');
    const recorded = readRecorded();
    for (const scenario of chosen) {
      recorded[scenario.name] = await runScenario(scenario, realRunner(binary));
      console.log(`recorded ${scenario.name}: ${recorded[scenario.name]?.length} steps`);
    }
    writeFileSync(recordedPath, JSON.stringify(recorded, null, 1) + '\n');
    return;
  }
  if (mode !== 'compare') throw new Error('usage: kubectl-diff.ts record|compare [scenario…]');
  const recorded = readRecorded();
  let same = 0;
  let total = 0;
  for (const scenario of chosen) {
    const theirs = recorded[scenario.name] ?? [];
    const ours = await runScenario(scenario, ourRunner);
    ours.forEach((o, i) => {
      const t = theirs[i];
      total++;
      if (t !== undefined && t.code === o.code && t.stdout === o.stdout && t.stderr === o.stderr) {
        same++;
        return;
      }
      console.log(`\n=== ${scenario.name}#${i}: kubectl ${o.args.join(' ')}`);
      if (t === undefined) return console.log('(not recorded)');
      if (t.code !== o.code) console.log(`exit: kubectl ${t.code}, ours ${o.code}`);
      if (t.stdout !== o.stdout) console.log(`--- stdout kubectl:\n${t.stdout}--- stdout ours:\n${o.stdout}`);
      if (t.stderr !== o.stderr) console.log(`--- stderr kubectl:\n${t.stderr}--- stderr ours:\n${o.stderr}`);
    });
  }
  console.log(`\n${same} of ${total} steps identical`);
}

await main();
