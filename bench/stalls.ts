/**
 * What held the event loop: reads a `--cpu-prof` profile of the bench's
 * server process and the stalls `ORCH_BENCH_STALLS` recorded (see
 * `bench/serve.ts`), and prints for each of the longest stalls the samples
 * inside it as the heaviest call path (each step the child with the most
 * samples) and the functions with the most self time. Not a figure of the
 * bench: a tool for finding the step to cut. `STALLS_BY=cpu` orders them by
 * the process's CPU time in each instead of wall time (on a loaded machine).
 *
 *   npx tsx bench/stalls.ts <file.cpuprofile> <stalls.json> [count]
 */

import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const [profileFile, stallsFile, countArg] = process.argv.slice(2);
if (profileFile === undefined || stallsFile === undefined)
  throw new Error('usage: stalls.ts <cpuprofile> <stalls.json> [count]');
const profile = JSON.parse(readFileSync(profileFile, 'utf8')) as Profile;
const stalls = JSON.parse(readFileSync(stallsFile, 'utf8')) as [number, number, number?][];
const byCpu = process.env['STALLS_BY'] === 'cpu';
const count = Number(countArg ?? 8);

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));

const label = (id: number): string => {
  const f = byId.get(id)?.callFrame;
  if (f === undefined) return '?';
  const where = f.url.replace(/^.*\/(src|node_modules|bench)\//, '$1/').replace(/^file:\/\//, '');
  return `${f.functionName || '(anonymous)'} ${where}${where !== '' ? `:${f.lineNumber + 1}` : ''}`;
};

const length = (s: [number, number, number?]): number => (byCpu ? (s[2] ?? 0) : s[1] - s[0]);
console.log(
  `${stalls.length} stalls; longest wall ${Math.max(0, ...stalls.map((s) => s[1] - s[0])) / 1000} ms, ` +
    `most CPU ${Math.max(0, ...stalls.map((s) => s[2] ?? 0)) / 1000} ms`,
);
for (const [start, end, cpuUs] of [...stalls].sort((a, b) => length(b) - length(a)).slice(0, count)) {
  // Samples in the stall, weighted by the time to the next sample.
  const inclusive = new Map<number, number>();
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const at = times[i] ?? 0;
    if (at < start || at > end) continue;
    const w = (times[i + 1] ?? at) - at;
    const leaf = profile.samples[i] ?? 0;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + w);
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id))
      inclusive.set(id, (inclusive.get(id) ?? 0) + w);
  }
  console.log(
    `\n== stall ${((end - start) / 1000).toFixed(0)} ms (CPU ${((cpuUs ?? 0) / 1000).toFixed(0)} ms) at +${((start - profile.startTime) / 1e6).toFixed(2)} s`,
  );
  // The heaviest path from the root, then its branches of 10% or more at each step.
  const root = profile.nodes[0]?.id ?? 1;
  const total = inclusive.get(root) ?? 1;
  const walk = (id: number, depth: number): void => {
    const kids = (byId.get(id)?.children ?? [])
      .map((c) => [c, inclusive.get(c) ?? 0] as const)
      .filter(([, w]) => w >= total * 0.1)
      .sort((a, b) => b[1] - a[1]);
    for (const [c, w] of kids) {
      if (depth < 60)
        console.log(`${'  '.repeat(Math.min(depth, 30))}${(w / 1000).toFixed(1)} ms ${label(c)}`);
      walk(c, depth + 1);
    }
  };
  walk(root, 0);
  console.log('  -- self:');
  for (const [k, w] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 8))
    console.log(`  ${(w / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}
