/**
 * Watch helper for tests: opens a watch over real HTTPS (trusting the test
 * host's CA, as the administrator unless `as` says otherwise) and collects
 * its events as they arrive, so a test can wait for the n-th event (or for
 * a predicate) and abort the stream.
 */

import { fetchWithCA, type As } from './host';

export interface CollectedEvent {
  type: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  object: any;
}

export interface WatchHandle {
  status: number;
  headers: Headers;
  events: CollectedEvent[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Waits until at least `n` events arrived (or fails after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<CollectedEvent[]>;
  abort(): void;
}

export async function openWatch(
  baseUrl: string,
  path: string,
  options: { as?: As; headers?: Record<string, string> } = {},
): Promise<WatchHandle> {
  const controller = new AbortController();
  const res = await fetchWithCA(
    `${baseUrl}${path}`,
    { signal: controller.signal, ...(options.headers !== undefined ? { headers: options.headers } : {}) },
    options.as,
  );
  const events: CollectedEvent[] = [];
  const waiters: (() => void)[] = [];
  const notify = () => {
    for (const w of waiters.splice(0)) w();
  };
  const ended = (async () => {
    if (res.body === null) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += value;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line !== '') {
            events.push(JSON.parse(line) as CollectedEvent);
            notify();
          }
        }
      }
    } catch {
      // aborted
    } finally {
      notify();
    }
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    async waitFor(n, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < n) {
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `expected ${n} watch events, got ${events.length}: ${JSON.stringify(events.map((e) => e.type))}`,
          );
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, Math.min(left, 100));
        });
      }
      return events;
    },
    abort: () => controller.abort(),
  };
}
