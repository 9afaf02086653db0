/**
 * `npm run fuzz -- --n 100000 --seed S [--storage memory|dexie]
 * [--profile orch|kubernetes] [--future-versions]`: the long run of the
 * HTTP fuzzer (test/fuzz) against an in-process Node host. Prints the
 * counts — requests, answers by status, 4xx by reason, the 5xx classes the
 * real server answers too (test/fuzz/expected-5xx.ts) apart from unexpected
 * 5xx by message, with a sample request each — and every invariant that
 * failed, with the index of the request (rerun with the same seed to
 * reproduce it). Exits 1 when anything failed.
 */

import { startNodeHost } from '../src/hosts/node/host';
import { isProfileName, type ProfileName } from '../src/machinery/naming';
import { Fuzzer } from '../test/fuzz/runner';

function parse(argv: string[]): {
  n: number;
  seed: number;
  storage: 'memory' | 'dexie';
  profile: ProfileName;
  future: boolean;
} {
  const out = {
    n: 1000,
    seed: Date.now() % 1_000_000,
    storage: 'memory' as 'memory' | 'dexie',
    profile: 'orch' as ProfileName,
    future: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1] ?? '';
    if (flag === '--n') out.n = Number(value);
    else if (flag === '--seed') out.seed = Number(value);
    else if (flag === '--storage' && (value === 'memory' || value === 'dexie')) out.storage = value;
    else if (flag === '--profile' && isProfileName(value)) out.profile = value;
    else if (flag === '--future-versions') {
      out.future = true;
      continue;
    } else throw new Error(`unknown or invalid argument: ${flag} ${value}`);
    i++;
  }
  if (!Number.isInteger(out.n) || out.n < 1 || !Number.isInteger(out.seed))
    throw new Error('--n and --seed take integers');
  return out;
}

function table(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `  ${String(v).padStart(7)}  ${k}`)
    .join('\n');
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  process.stdout.write(
    `fuzz: ${args.n} requests, seed ${args.seed}, ${args.storage} store, ${args.profile} profile\n`,
  );
  const host = await startNodeHost({ port: 0, storage: args.storage, profile: args.profile });
  const started = Date.now();
  try {
    const fuzzer = new Fuzzer(host, args.profile);
    let printed = 0;
    await fuzzer.seed();
    const report = await fuzzer.run({
      seed: args.seed,
      n: args.n,
      futureVersions: args.future,
      onProgress: (done, partial) => {
        // Failures as they are found, so that a run stopped early still tells what it saw.
        for (const f of partial.failures.slice(printed))
          process.stderr.write(`  failure #${f.index} ${f.problem} (${f.status})\n      ${f.request}\n`);
        printed = partial.failures.length;
        if (done % 1000 === 0)
          process.stderr.write(
            `  ${done} requests (${Math.round((Date.now() - started) / 1000)} s), ${printed} failures\n`,
          );
      },
    });
    const fivexx = Object.values(report.serverErrors).reduce((sum, e) => sum + e.count, 0);
    process.stdout.write(`requests: ${report.requests} in ${Math.round((Date.now() - started) / 1000)} s\n`);
    process.stdout.write(`by status:\n${table(report.byStatus)}\n`);
    process.stdout.write(`4xx by reason:\n${table(report.byReason)}\n`);
    const expected = Object.values(report.expectedServerErrors).reduce((sum, e) => sum + e.count, 0);
    process.stdout.write(`expected 5xx (the real server answers them too; decision 0013): ${expected}\n`);
    for (const [name, e] of Object.entries(report.expectedServerErrors))
      process.stdout.write(`  ${e.count} × ${name}\n      e.g. ${e.sample.slice(0, 300)}\n`);
    process.stdout.write(`unexpected 5xx (not 504 for a future resourceVersion): ${fivexx}\n`);
    for (const [message, e] of Object.entries(report.serverErrors))
      process.stdout.write(`  ${e.count} × ${message}\n      e.g. ${e.sample}\n`);
    process.stdout.write(`invariant failures: ${report.failures.length}\n`);
    for (const f of report.failures.slice(0, 50))
      process.stdout.write(
        `  #${f.index} ${f.problem} (${f.status})\n      ${f.request}\n      -> ${f.body.slice(0, 300)}\n`,
      );
    process.exitCode = report.failures.length > 0 ? 1 : 0;
  } finally {
    await host.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(2);
});
