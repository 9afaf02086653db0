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

/** What the real WithRetryAfter filter never refuses. */
const exemptPathPrefixes = ['/readyz', '/livez', '/healthz', '/metrics'];
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
  /** Counts a non-long-running request in flight (mutating or not); returns its end. */
  inflight: (mutating: boolean) => () => void;
}

export type Admission = { response: Response } | { done: () => void };

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
   * request's URL and info when the caller has them already (the server decodes each request once).
   */
  admit(request: Request, decoded?: { url: URL; info: RequestInfo }): Admission {
    const url = decoded?.url ?? new URL(request.url);
    const info = decoded?.info ?? parseRequestInfo(request.method, url);
    const longRunning = isLongRunningInfo(info);
    const exempt =
      exemptPathPrefixes.some((p) => url.pathname.startsWith(p)) ||
      (request.headers.get('user-agent') ?? '').startsWith(this.options.loopbackUserAgentPrefix);
    if (this.notAccepting && !exempt) return { response: this.refusal() };
    if (longRunning) return { done: () => undefined };
    const endInflight = this.options.inflight(!readOnlyVerbs.has(info.verb));
    // The drain waits for what the refusal would have refused: probes and the loopback are not waited for.
    const drains = !exempt;
    if (drains) this.inflightCount += 1;
    let done = false;
    return {
      done: () => {
        if (done) return;
        done = true;
        endInflight();
        if (!drains) return;
        this.inflightCount -= 1;
        this.settle();
      },
    };
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
