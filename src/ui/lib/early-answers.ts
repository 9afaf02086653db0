/**
 * Requests asked before the UI renders, answered to the UI's own requests.
 * On a reload the page is served by the worker already, so the first
 * screen's reads (discovery, the default list, the namespaces, `/version`)
 * can go at the main script's evaluation instead of after React's first
 * render and the shell's effects. Each early answer is handed once, to the
 * first request of the UI that asks for the same thing (method, URL, Accept
 * and Authorization, and as the same identity version: take-once.ts); one
 * not taken within a few seconds is dropped, and a request of the UI that finds none
 * goes to the server as usual. So an answer shown is never older than the
 * UI's own request would have been by more than that window, and the watch
 * that follows a list starts from the list's resourceVersion, as always.
 * The early requests pass through the request log like any other (one
 * request, one entry: the UI's taking it is not logged again).
 */

import { TakeOnce } from './take-once';

type Fetch = (request: Request) => Promise<Response>;

/** How long an early answer waits for the UI's request; the first screen asks within a few hundred ms. */
export const EARLY_ANSWER_TTL_MS = 5000;

export class EarlyAnswers {
  /** Answers by request key, each with the identity version it was asked as. */
  private readonly waiting: TakeOnce<Promise<Response>>;

  constructor(
    /** Sends a request (through the log and the identity, as the UI's own requests go). */
    private readonly inner: Fetch,
    /** The acting identity's version (IdentityStore.version): answers of another version are not taken. */
    private readonly identityVersion: () => number,
    ttlMs = EARLY_ANSWER_TTL_MS,
  ) {
    this.waiting = new TakeOnce(ttlMs);
  }

  /**
   * Sends `request` now and keeps its answer for the UI's matching request. The promise returned is the
   * kept answer: its caller must not read the body (the UI's request does).
   */
  ask(request: Request): Promise<Response> {
    return this.keep(request, () => this.inner(request));
  }

  /**
   * Keeps `answer`, sent for `request` before this store existed (by index.html, as the identity this store's
   * version stands for), for the UI's matching request; a failure sends the request again the usual way.
   */
  adopt(request: Request, answer: Promise<Response>): Promise<Response> {
    return this.keep(request, () => answer.catch(() => this.inner(request)));
  }

  private keep(request: Request, send: () => Promise<Response>): Promise<Response> {
    const key = keyOf(request);
    // Only an answer asked as this identity version is shared; one of another version is replaced.
    const existing = key === undefined ? undefined : this.waiting.peek(key, this.identityVersion());
    if (existing !== undefined) return existing;
    const answer = send();
    if (key === undefined) return answer;
    // A failure is the taker's to see; untaken, it must not surface as an unhandled rejection.
    answer.catch(() => undefined);
    this.waiting.put(key, answer, this.identityVersion());
    return answer;
  }

  /**
   * The early answer for `request`, once; undefined when there is none, or it was asked as another identity
   * (then it waits for a request of that identity, or its time to live).
   */
  take(request: Request): Promise<Response> | undefined {
    const key = keyOf(request);
    const answer = key === undefined ? undefined : this.waiting.take(key, this.identityVersion());
    return answer === undefined ? undefined : followAbort(answer, request.signal);
  }

  /** How many early answers wait to be taken (for tests). */
  size(): number {
    return this.waiting.size();
  }
}

/** A transport that hands the UI's request its early answer when one waits, and sends it otherwise. */
export function earlyFetch(early: EarlyAnswers, inner: Fetch): Fetch {
  return (request) => early.take(request) ?? inner(request);
}

/** Only reads without a body are kept; the key is what makes two such requests the same question. */
function keyOf(request: Request): string | undefined {
  if (request.method !== 'GET') return undefined;
  const h = request.headers;
  return [
    request.url,
    h.get('accept') ?? '',
    h.get('authorization') ?? '',
    h.get('impersonate-user') ?? '',
  ].join('\n');
}

/** The answer, or the abort of the UI's request if that comes first (as its own `fetch` would reject). */
function followAbort(answer: Promise<Response>, signal: AbortSignal): Promise<Response> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const aborted = () => reject(abortReason(signal));
    signal.addEventListener('abort', aborted, { once: true });
    answer.then(
      (response) => {
        signal.removeEventListener('abort', aborted);
        resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}
