/**
 * `npm run bench -- profile`: a CPU profile of the app's service worker while
 * the page creates ConfigMaps through it (sequentially, then 16 in flight), so
 * that work on the browser write path starts from where the worker spends its
 * time rather than from a guess. Builds the app with `ORCH_PROFILE_BUILD=1`
 * (unminified, with a source map), attaches to the worker over CDP, writes
 * `.bench/worker-create.cpuprofile` `worker-create-16`, `worker-floor` (the trivial handler), `worker-floor-idb`
 * (the trivial handler writing the object in one IndexedDB transaction in the worker), `worker-get`,
 * `worker-floor-get` and `worker-blob-floor-get` (the trivial handler answering a kept Blob, the GET's stricter
 * floor) (open them in DevTools) and prints
 * the top functions by self and by total time. It reports no figures.
 */

import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Figure } from './report';
import { adminToken, settleOnVersion, startAppInChromium } from './app-in-chromium';
import { attachToWorker } from './worker-target';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export async function runProfileBench(): Promise<Figure[]> {
  const app = await startAppInChromium('profile', { env: { ORCH_PROFILE_BUILD: '1' } });
  if (app === undefined) return [];
  const { browser } = app;
  try {
    const page = await (await browser.newContext()).newPage();
    await settleOnVersion(page, app.base);
    // Warm the server core up (first request starts it) before the profile starts.
    const token = await adminToken(page);

    const cdp = await browser.newBrowserCDPSession();
    const worker = await attachToWorker(cdp);
    await worker.send('Profiler.enable');
    await worker.send('Profiler.setSamplingInterval', { interval: 100 });

    const loop = (width: number, offset: number, count: number, floor?: '1' | 'idb') =>
      page.evaluate(
        async ({ width, offset, count, token, floor }) => {
          const path = '/api/v1/namespaces/default/configmaps';
          let next = 0;
          const t = performance.now();
          await Promise.all(
            Array.from({ length: width }, async () => {
              while (next < count) {
                const i = offset + next++;
                const res = await fetch(path, {
                  method: 'POST',
                  body: JSON.stringify({
                    apiVersion: 'v1',
                    kind: 'ConfigMap',
                    metadata: { name: `prof-${i}`, labels: { app: 'bench' } },
                    data: { key: `value-${i}`, other: 'x'.repeat(64) },
                  }),
                  headers: {
                    'content-type': 'application/json',
                    ...(floor !== undefined
                      ? { 'x-bench-floor': floor }
                      : { authorization: `Bearer ${token}` }),
                  },
                });
                if (res.status !== 201) throw new Error(`create answered ${res.status}`);
                await res.arrayBuffer();
              }
            }),
          );
          return (count / (performance.now() - t)) * 1000;
        },
        { width, offset, count, token, floor },
      );

    await loop(1, 0, 50);
    mkdirSync('.bench', { recursive: true });
    // dist/ is shared and rebuilt by others: keep the map that matches these profiles beside them.
    if (existsSync('dist/sw.js.map')) copyFileSync('dist/sw.js.map', '.bench/worker-profile-sw.js.map');
    // The trivial handler's own profile shows what every request costs before the server core sees it.
    for (const [file, width, offset, floor] of [
      ['.bench/worker-create.cpuprofile', 1, 100, undefined],
      ['.bench/worker-create-16.cpuprofile', 16, 1000, undefined],
      ['.bench/worker-floor.cpuprofile', 1, 0, '1'],
      // The trivial handler that also writes the object in one IndexedDB transaction in the worker (0089's
      // informational floor): what a create's own transaction costs the worker's thread, beside the API's.
      ['.bench/worker-floor-idb.cpuprofile', 1, 400, 'idb'],
    ] as const) {
      await worker.send('Profiler.start');
      const rate = await loop(width, offset, 300, floor);
      const { profile } = await worker.send<{ profile: CpuProfile }>('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      process.stderr.write(
        `\n${floor === '1' ? 'trivial handler, ' : floor === 'idb' ? 'trivial handler + IndexedDB in the worker, ' : ''}${width} in flight: ${rate.toFixed(1)} creates/s while profiled; wrote ${file}\n${summarizeProfile(profile, 40, 300)}\n`,
      );
    }
    // GETs of one object, then the trivial handler's GETs (a GET carries no body: the floor's POST profile is not its floor).
    for (const [file, floor] of [
      ['.bench/worker-get.cpuprofile', undefined],
      ['.bench/worker-floor-get.cpuprofile', '1'],
      ['.bench/worker-blob-floor-get.cpuprofile', 'blob'],
    ] as const) {
      await worker.send('Profiler.start');
      const getRate = await page.evaluate(
        async ({ token, floor }) => {
          const t = performance.now();
          for (let i = 0; i < 300; i++) {
            const res = await fetch('/api/v1/namespaces/default/configmaps/prof-101', {
              headers:
                floor !== undefined ? { 'x-bench-floor': floor } : { authorization: `Bearer ${token}` },
            });
            if (res.status !== 200) throw new Error(`get answered ${res.status}`);
            await res.arrayBuffer();
          }
          return (300 / (performance.now() - t)) * 1000;
        },
        { token, floor },
      );
      const { profile } = await worker.send<{ profile: CpuProfile }>('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      process.stderr.write(
        `\n${floor === 'blob' ? 'trivial handler answering a kept Blob, ' : floor !== undefined ? 'trivial handler, ' : ''}GET: ${getRate.toFixed(1)}/s while profiled; wrote ${file}\n${summarizeProfile(profile, 25, 300)}\n`,
      );
    }
    return [];
  } finally {
    await app.close();
  }
}

/** Self and total time per function (name + file:line), top `n` of each, as text. */
/**
 * A sample's time is the gap to the one before it, counted at most `maxSampleGapUs`: on a loaded machine the
 * sampler itself is sometimes starved for hundreds of milliseconds, and the whole gap would otherwise go to
 * whatever frame the next sample caught (one such gap made a create's `deepEqual` look like 2.5 ms, 0118).
 */
const maxSampleGapUs = 1000;

/** The top functions by self and total time; with `requests`, each also in µs per request. */
export function summarizeProfile(profile: CpuProfile, n: number, requests?: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfByNode = new Map<number, number>();
  let starved = 0;
  profile.samples.forEach((id, i) => {
    const gap = profile.timeDeltas[i] ?? 0;
    if (gap > maxSampleGapUs) starved++;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + Math.min(gap, maxSampleGapUs));
  });
  const label = (node: ProfileNode) => {
    const file = node.callFrame.url.split('/').pop() ?? '';
    return `${node.callFrame.functionName || '(anonymous)'} ${file}:${node.callFrame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  for (const [id, micros] of selfByNode) {
    all += micros;
    const node = byId.get(id);
    if (!node) continue;
    self.set(label(node), (self.get(label(node)) ?? 0) + micros);
    // Each function counts once per sample even when recursive.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const up = byId.get(at);
      if (!up) break;
      const name = label(up);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + micros);
    }
  }
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([name, micros]) =>
          `  ${(micros / 1000).toFixed(1).padStart(8)} ms ${((micros / all) * 100).toFixed(1).padStart(5)}%${
            requests !== undefined ? ` ${(micros / requests).toFixed(0).padStart(6)} µs/req` : ''
          }  ${name}`,
      )
      .join('\n');
  const gaps =
    starved > 0
      ? ` (${starved} sampling gaps over ${maxSampleGapUs / 1000} ms counted as ${maxSampleGapUs / 1000} ms)`
      : '';
  return `sampled ${(all / 1000).toFixed(0)} ms${gaps}\nby self time:\n${top(self)}\nby total time:\n${top(total)}`;
}
