/**
 * `npm run bench`: runs every benchmark section and prints each figure
 * beside its floor with the cost ratio. `npm run bench -- node watch` runs
 * only the named sections. Results also go to `.bench/results.json`.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { printFigures, type Figure } from './report';
import { runNodeHostBench } from './node-host';
import { runWatchPagingBench } from './watch-paging';
import { runStorageBench } from './storage';
import { runBrowserBench, runBrowserSimulationBench } from './browser';
import { runApplyBench } from './apply';
import { runCelBench } from './cel';
import { runDecodeBench } from './decode';
import { runIdentityBench } from './identity';
import { runAdmissionBench } from './admission';
import { runCertificatesBench } from './certificates';

const sections: Record<string, () => Promise<Figure[]>> = {
  node: runNodeHostBench,
  watch: runWatchPagingBench,
  storage: async () =>
    (await runStorageBench()).map((r) => ({
      section: 'storage (raw)',
      ...r,
    })),
  browser: runBrowserBench,
  'browser-sim': runBrowserSimulationBench,
  simulation: async () => (await import('./simulation')).runSimulationBench(),
  decode: async () => runDecodeBench(),
  apply: runApplyBench,
  cel: async () => runCelBench(),
  identity: runIdentityBench,
  admission: runAdmissionBench,
  certificates: runCertificatesBench,
  ui: async () => (await import('./ui-load')).runUiLoadBench(),
  timeline: async () => (await import('./first-visit-timeline')).runTimelineBench(),
  explorer: async () => (await import('./explorer-load')).runExplorerLoadBench(),
  replicas: async () => (await import('./replicas')).runReplicasBench(),
  etcd: async () => (await import('./etcd')).runEtcdBench(),
  layers: async () => (await import('./request-layers')).runRequestLayersBench(),
  services: async () => (await import('./services')).runServicesBench(),
  protobuf: async () => (await import('./protobuf')).runProtobufBench(),
  profile: async () => (await import('./profile-worker')).runProfileBench(),
  trace: async () => (await import('./trace-creates')).runTraceBench(),
  scale: async () => (await import('./scale')).runScaleBench(),
  wide: async () => (await import('./wide-objects')).runWideObjectsBench(),
  watchers: async () => (await import('./watchers')).runWatchersBench(),
  metrics: async () => (await import('./metrics-size')).runMetricsSizeBench(),
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const names = wanted.length > 0 ? wanted : Object.keys(sections);
  const figures: Figure[] = [];
  for (const name of names) {
    const run = sections[name];
    if (run === undefined)
      throw new Error(`unknown section ${name} (known: ${Object.keys(sections).join(', ')})`);
    process.stderr.write(`running ${name}…\n`);
    figures.push(...(await run()));
  }
  process.stdout.write(`${printFigures(figures)}\n`);
  mkdirSync('.bench', { recursive: true });
  writeFileSync('.bench/results.json', JSON.stringify(figures, null, 2));
  process.exit(0);
}

void main();
