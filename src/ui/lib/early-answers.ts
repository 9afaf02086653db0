/**
 * Requests asked before the UI renders, answered to the UI's own requests.
 * On a reload the page is served by the worker already, so the first
 * screen's reads (discovery, the default list, the namespaces, `/version`)
 * can go at the main script's evaluation instead of after React's first
 * render and the shell's effects. Each early answer is handed once, to the
 * first request of the UI that asks for the same thing (method, URL, Accept
 * and Authorization, and as the same identity version); one not taken
 * within a few seconds is dropped, and a request of the UI that finds none
 * goes to the server as usual. So an answer shown is never older than the
 * UI's own request would have been by more than that window, and the watch
 * that follows a list starts from the list's resourceVersion, as always.
 * The early requests pass through the request log like any other (one
 * request, one entry: the UI's taking it is not logged again).
 */

type Fetch = (request: Request) => Promise<Response>;

interface Early {
  answer: Promise<Response>;
  /** The identity version it was asked as: an answer for another identity is not handed out. */
  version: number;
  timer: ReturnType<typeof setTimeout>;
}

/** How long an early answer waits for the UI's request; the first screen asks within a few hundred ms. */
export const EARLY_ANSWER_TTL_MS = 5000;

export class EarlyAnswers {
  private readonly waiting = new Map<string, Early>();

  constructor(
    /** Sends a request (through the log and the identity, as the UI's own requests go). */
    private readonly inner: Fetch,
    /** The acting identity's version (IdentityStore.version): answers of another version are not taken. */
    private readonly identityVersion: () => number,
    private readonly ttlMs = EARLY_ANSWER_TTL_MS,
  ) {}

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
    const existing = key === undefined ? undefined : this.waiting.get(key);
    if (existing !== undefined) return existing.answer;
    const answer = send();
    if (key === undefined) return answer;
    // A failure is the taker's to see; untaken, it must not surface as an unhandled rejection.
    answer.catch(() => undefined);
    const timer = setTimeout(() => {
      if (this.waiting.get(key)?.answer === answer) this.waiting.delete(key);
    }, this.ttlMs);
    this.waiting.set(key, { answer, version: this.identityVersion(), timer });
    return answer;
  }

  /** The early answer for `request`, once; undefined when there is none (or it was asked as another identity). */
  take(request: Request): Promise<Response> | undefined {
    const key = keyOf(request);
    if (key === undefined) return undefined;
    const early = this.waiting.get(key);
    if (early === undefined) return undefined;
    this.waiting.delete(key);
    clearTimeout(early.timer);
    if (early.version !== this.identityVersion()) return undefined;
    return followAbort(early.answer, request.signal);
  }

  /** How many early answers wait to be taken (for tests). */
  size(): number {
    return this.waiting.size;
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
