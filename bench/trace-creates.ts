/**
 * `npm run bench -- trace`: a browser-wide Chromium performance trace (so the page, the service worker's
 * thread and the IndexedDB backend in the browser process are all in it) while the page makes sequential
 * creates through the API, then through the in-worker composite floor (`x-bench-floor: idb`: the trivial
 * handler that writes the body in one IndexedDB transaction), then through the trivial handler. It writes
 * `.bench/trace-creates.json` (open it in DevTools' Performance panel) and prints, per create, the medians of
 * the phases the trace's own events cut it into, for the API and the floor side by side (decision 0104): where
 * a create's time over the floor goes, whether the worker is busy or idle there, and how long the database
 * takes. It reports no figures: the tracing itself slows the JavaScript down.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import type { Figure } from './report';
import { adminToken, settleOnVersion, startAppInChromium } from './app-in-chromium';

interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

const categories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'IndexedDB',
  'toplevel',
  'ServiceWorker',
  'blink.user_timing',
  'loading',
  'mojom',
];

export async function runTraceBench(): Promise<Figure[]> {
  const app = await startAppInChromium('trace');
  if (app === undefined) return [];
  try {
    const page = await (await app.browser.newContext()).newPage();
    await settleOnVersion(page, app.base);
    const token = await adminToken(page);
    const loop = (offset: number, count: number, floor: string | undefined, mark: string) =>
      page.evaluate(
        async ({ offset, count, token, floor, mark }) => {
          performance.mark(`${mark}-start`);
          for (let i = offset; i < offset + count; i++) {
            const res = await fetch('/api/v1/namespaces/default/configmaps', {
              method: 'POST',
              body: JSON.stringify({
                apiVersion: 'v1',
                kind: 'ConfigMap',
                metadata: { name: `trace-${i}`, labels: { app: 'bench' } },
                data: { key: `value-${i}`, other: 'x'.repeat(64) },
              }),
              headers: {
                'content-type': 'application/json',
                ...(floor !== undefined ? { 'x-bench-floor': floor } : { authorization: `Bearer ${token}` }),
              },
            });
            if (res.status !== 201) throw new Error(`create answered ${res.status}`);
            await res.arrayBuffer();
          }
          performance.mark(`${mark}-end`);
        },
        { offset, count, token, floor, mark },
      );
    // Warm up both paths (the first creates compile the worker's code and start its informers).
    await loop(0, 100, undefined, 'warm');
    await loop(0, 100, 'idb', 'warm-floor');
    const cdp = await app.browser.newBrowserCDPSession();
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: categories },
      transferMode: 'ReportEvents',
    });
    await loop(1000, 200, undefined, 'api');
    await loop(1000, 200, 'idb', 'floor');
    await cdp.send('Tracing.end');
    await complete;
    mkdirSync('.bench', { recursive: true });
    writeFileSync('.bench/trace-creates.json', JSON.stringify({ traceEvents: events }));
    const api = phases(events, 'api');
    const floor = phases(events, 'floor');
    process.stdout.write(
      'µs per create (medians), API vs the in-worker floor (trivial handler + 1 IDB txn)\n',
    );
    for (const [name, value] of api)
      process.stdout.write(
        `${name.padEnd(44)} ${value.toFixed(0).padStart(7)} ${(floor.get(name) ?? NaN).toFixed(0).padStart(7)}\n`,
      );
    process.stdout.write('wrote .bench/trace-creates.json\n');
    return [];
  } finally {
    await app.close();
  }
}

/** Each create of the marked window cut into phases by the trace's events; the medians, in µs. */
function phases(events: TraceEvent[], mark: string): Map<string, number> {
  const at = (name: string) =>
    events.find((e) => e.cat === 'blink.user_timing' && e.name === name)?.ts ?? NaN;
  const start = at(`${mark}-start`);
  const end = at(`${mark}-end`);
  const worker = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'ServiceWorker thread',
  );
  if (worker === undefined) throw new Error('no service worker thread in the trace');
  const inWindow = events
    .filter((e) => e.ts >= start && e.ts <= end && (e.ph === 'X' || e.ph === 'I'))
    .sort((a, b) => a.ts - b.ts);
  const on = (thread: 'worker' | 'page', name: string) =>
    inWindow.filter(
      (e) =>
        e.pid === worker.pid && e.tid === (thread === 'worker' ? worker.tid : worker.pid) && e.name === name,
    );
  const sent = on('page', 'ResourceSendRequest');
  const received = on('page', 'ResourceReceiveResponse');
  const finished = on('page', 'ResourceFinish');
  const dispatched = on('worker', 'ServiceWorkerGlobalScope::DispatchFetchEventInternal');
  const opened = on('worker', 'IDBDatabase::transaction');
  const completed = on('worker', 'IDBTransaction::onComplete');
  const answered = on('worker', 'ServiceWorkerGlobalScope::RespondToFetchEvent');
  // The worker's tasks: the scheduler's (`ThreadControllerImpl::RunTask`) and those run outside it (`RunTask`
  // alone, e.g. a body read with `arrayBuffer()` completing, decision 0115), outermost only, so none counts twice.
  const tasks: TraceEvent[] = [];
  for (const t of [...on('worker', 'ThreadControllerImpl::RunTask'), ...on('worker', 'RunTask')].sort(
    (a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0),
  )) {
    const last = tasks[tasks.length - 1];
    if (last === undefined || t.ts >= last.ts + (last.dur ?? 0)) tasks.push(t);
  }
  const busy = (from: number, to: number) =>
    tasks.reduce((sum, t) => sum + Math.max(0, Math.min(t.ts + (t.dur ?? 0), to) - Math.max(t.ts, from)), 0);
  const rows = new Map<string, number[]>();
  const add = (name: string, value: number | undefined) => {
    if (value === undefined || Number.isNaN(value)) return;
    rows.set(name, [...(rows.get(name) ?? []), value]);
  };
  sent.forEach((s, i) => {
    const f = finished[i]?.ts;
    const d = dispatched[i]?.ts;
    const o = opened[i]?.ts;
    const c = completed[i]?.ts;
    const a = answered[i]?.ts;
    const r = received[i]?.ts;
    if (
      f === undefined ||
      d === undefined ||
      o === undefined ||
      c === undefined ||
      a === undefined ||
      r === undefined
    )
      return;
    add('whole create (page)', f - s.ts);
    add('page send -> fetch event', d - s.ts);
    add('fetch event -> transaction opened', o - d);
    add('transaction opened -> complete in worker', c - o);
    add('complete -> respondWith answered', a - c);
    add('answered -> page has the response', r - a);
    add('page has the response -> body read', f - r);
    add('worker busy, fetch event -> answered', busy(d, a));
    add('worker busy, answered -> body read', busy(a, f));
    add('worker busy, transaction opened -> complete', busy(o, c));
    const database = inWindow.filter((e) => e.ts >= o && e.ts <= c && e.pid !== worker.pid);
    const puts = database.filter((e) => e.name === 'Database::PutOperation');
    add('IndexedDB requests (puts) per transaction', puts.length);
    add(
      'transaction opened -> first put in the database',
      puts[0] === undefined ? undefined : puts[0].ts - o,
    );
    const done = database.find((e) => e.name === 'Transaction::CommitPhaseTwo.TransactionCompleteCallbacks');
    add('transaction opened -> committed in the database', done === undefined ? undefined : done.ts - o);
  });
  const medians = new Map<string, number>();
  for (const [name, values] of rows) {
    const sorted = [...values].sort((x, y) => x - y);
    medians.set(name, sorted[Math.floor(sorted.length / 2)] ?? NaN);
  }
  return medians;
}
