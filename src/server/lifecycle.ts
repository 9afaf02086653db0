/**
 * The graceful-termination signals of the real server and the request gate
 * they drive. Shutdown starts (`/readyz` fails its `shutdown` check at
 * once); after the shutdown delay the server stops accepting new requests
 * and waits for the in-flight non-long-running ones to drain (watches and
 * other long-running requests are not waited for; they are closed when the
 * server closes). New requests in that window are refused as the real
 * filters refuse them: 429 `Retry-After: 5` with `--shutdown-send-retry-after`
 * (the listener stays open until the drain), otherwise 503 `Retry-After: 1`
 * for requests still arriving on open connections. Health probes, `/metrics`
 * and the server's own loopback calls are never refused. The gate also feeds
 * `apiserver_current_inflight_requests`.
 */

import { parseRequestInfo, type RequestInfo } from '../http/request-info';

/** What the real WithRetryAfter filter never refuses: paths starting `/readyz`, `/livez`, `/healthz` or `/metrics`. */
const exemptPath = /^\/(?:readyz|livez|healthz|metrics)/;
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const readOnlyVerbs = new Set(['get', 'list', 'watch']);

/** The real server's long-running request test: watches, proxies and the streaming subresources. */
export function isLongRunningRequest(method: string, url: URL): boolean {
  return isLongRunningInfo(parseRequestInfo(method, url));
}

/** `isLongRunningRequest` for request info already decoded. */
function isLongRunningInfo(info: RequestInfo): boolean {
  return (
    info.verb === 'watch' ||
    info.verb === 'proxy' ||
    (info.isResourceRequest && longRunningSubresources.has(info.subresource))
  );
}

export interface LifecycleOptions {
  /** `--shutdown-send-retry-after`. */
  sendRetryAfter: boolean;
  /** The loopback user agent's prefix (`kube-apiserver/`, per profile). */
  loopbackUserAgentPrefix: string;
  /** Counts a non-long-running request in flight (mutating or not): `1` as it begins, `-1` as it ends. */
  inflight: (mutating: boolean, change: 1 | -1) => void;
}

export type Admission = { response: Response } | { done: () => void };

/**
 * A request `enter` let through, and how its end is counted (`leave`): one of five shared values, so that
 * letting a request through makes no object of its own.
 */
export interface Entry {
  /** Counted in flight (not long-running). */
  readonly counted: boolean;
  readonly mutating: boolean;
  /** Waited for by the drain (not a probe or the server's own loopback). */
  readonly drains: boolean;
}

const longRunningEntry: Entry = Object.freeze({ counted: false, mutating: false, drains: false });
const countedEntries: readonly Entry[] = [false, true].flatMap((mutating) =>
  [false, true].map((drains) => Object.freeze({ counted: true, mutating, drains })),
);

export class Lifecycle {
  private initiated = false;
  private notAccepting = false;
  private inflightCount = 0;
  private readonly drainWaiters: (() => void)[] = [];

  constructor(private readonly options: LifecycleOptions) {}

  get shutdownInitiated(): boolean {
    return this.initiated;
  }

  /** SIGTERM: `/readyz` fails from now on; requests are still served. */
  beginShutdown(): void {
    this.initiated = true;
  }

  /** The shutdown delay has elapsed: new requests are refused from now on. */
  stopAcceptingNew(): void {
    this.initiated = true;
    this.notAccepting = true;
    this.settle();
  }

  /** Resolves once no non-long-running request is in flight (after `stopAcceptingNew`). */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      this.drainWaiters.push(resolve);
      this.settle();
    });
  }

  /**
   * Lets a request through (and counts it), or answers it as the real shutdown filters do. `decoded` is the
   * request's URL and info when the caller has them already (the server decodes each request once). The
   * returned `done` ends it (once, however often it is called).
   */
  admit(request: Request, decoded?: { url: URL; info: RequestInfo }): Admission {
    const entered = this.enter(request, decoded);
    if (entered instanceof Response) return { response: entered };
    let done = false;
    return {
      done: () => {
        if (done) return;
        done = true;
        this.leave(entered);
      },
    };
  }

  /** `admit` for a caller that ends the request exactly once itself (`leave`): no object per request. */
  enter(request: Request, decoded?: { url: URL; info: RequestInfo }): Response | Entry {
    const url = decoded?.url ?? new URL(request.url);
    const info = decoded?.info ?? parseRequestInfo(request.method, url);
    const exempt =
      exemptPath.test(url.pathname) ||
      (request.headers.get('user-agent') ?? '').startsWith(this.options.loopbackUserAgentPrefix);
    if (this.notAccepting && !exempt) return this.refusal();
    if (isLongRunningInfo(info)) return longRunningEntry;
    const mutating = !readOnlyVerbs.has(info.verb);
    this.options.inflight(mutating, 1);
    // The drain waits for what the refusal would have refused: probes and the loopback are not waited for.
    const drains = !exempt;
    if (drains) this.inflightCount += 1;
    return countedEntries[(mutating ? 2 : 0) + (drains ? 1 : 0)] as Entry;
  }

  /** Ends a request `enter` let through. */
  leave(entry: Entry): void {
    if (!entry.counted) return;
    this.options.inflight(entry.mutating, -1);
    if (!entry.drains) return;
    this.inflightCount -= 1;
    this.settle();
  }

  private refusal(): Response {
    if (this.options.sendRetryAfter)
      return new Response('The apiserver is shutting down, please try again later.\n', {
        status: 429,
        headers: {
          'Content-Type': 'text/plain; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
          'Retry-After': '5',
          Connection: 'close',
        },
      });
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'apiserver is shutting down',
      reason: 'ServiceUnavailable',
      code: 503,
    };
    return new Response(`${JSON.stringify(status)}\n`, {
      status: 503,
      headers: {
        'Content-Type': 'application/json',
        'X-Content-Type-Options': 'nosniff',
        'Retry-After': '1',
      },
    });
  }

  private settle(): void {
    if (!this.notAccepting || this.inflightCount > 0) return;
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}
