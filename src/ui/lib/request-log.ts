/**
 * The request log: every request the UI sends goes through
 * `recordingFetch`, which notes method, path, headers and body, then the
 * answer's status, headers and (for non-streamed answers) body. The console
 * lists the log, reopens any entry, and turns it into curl or kubectl. An
 * external store (subscribe / getSnapshot) so React reads it without copies;
 * bounded, since a live view sends requests for as long as it is open.
 */

export interface LoggedRequest {
  id: number;
  /** Epoch milliseconds when it was sent. */
  startedAt: number;
  method: string;
  /** Path and query, as sent. */
  path: string;
  requestHeaders: [string, string][];
  requestBody?: string;
  status?: number;
  statusText?: string;
  responseHeaders?: [string, string][];
  responseBody?: string;
  /** True for watches and other streams, whose bodies are not kept. */
  streamed: boolean;
  durationMs?: number;
  /** Set when no answer came (network failure, abort). */
  error?: string;
}

const maxEntries = 400;
const maxBodyChars = 200_000;

export class RequestLog {
  private entries: readonly LoggedRequest[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly LoggedRequest[] => this.entries;

  get(id: number): LoggedRequest | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  /** Records a request being sent; returns its id. */
  begin(entry: Omit<LoggedRequest, 'id'>): number {
    const id = this.nextId++;
    const next = [...this.entries, { ...entry, id }];
    this.entries = next.length > maxEntries ? next.slice(next.length - maxEntries) : next;
    this.emit();
    return id;
  }

  update(id: number, patch: Partial<LoggedRequest>): void {
    const index = this.entries.findIndex((entry) => entry.id === id);
    if (index < 0) return;
    const next = this.entries.slice();
    next[index] = { ...(next[index] as LoggedRequest), ...patch };
    this.entries = next;
    this.emit();
  }

  clear(): void {
    this.entries = [];
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/** A `fetch` for the API client that records every exchange in `log`. */
export function recordingFetch(
  log: RequestLog,
  inner: (request: Request) => Promise<Response> = (request) => fetch(request),
): (request: Request) => Promise<Response> {
  return (request) => record(log, request, Date.now(), performance.now(), () => inner(request));
}

/**
 * Records an exchange sent before the log existed (index.html's early requests of a reload, see
 * first-screen.ts), with the moment it was sent (epoch and `performance.now()` milliseconds).
 */
export function recordAnswer(
  log: RequestLog,
  request: Request,
  sent: { at: number; started: number },
  answer: Promise<Response>,
): Promise<Response> {
  return record(log, request, sent.at, sent.started, () => answer);
}

async function record(
  log: RequestLog,
  request: Request,
  startedAt: number,
  started: number,
  send: () => Promise<Response>,
): Promise<Response> {
  const url = new URL(request.url, location.href);
  const streamed = isStreamed(url, request);
  const requestBody = request.body === null ? undefined : capped(await request.clone().text());
  const entry: Omit<LoggedRequest, 'id'> = {
    startedAt,
    method: request.method,
    path: url.pathname + url.search,
    requestHeaders: [...request.headers],
    streamed,
  };
  if (requestBody !== undefined) entry.requestBody = requestBody;
  const id = log.begin(entry);
  try {
    const response = await send();
    log.update(id, {
      status: response.status,
      statusText: response.statusText,
      responseHeaders: [...response.headers],
      durationMs: performance.now() - started,
    });
    if (!streamed) void keepBody(log, id, response.clone());
    return response;
  } catch (error) {
    log.update(id, {
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

async function keepBody(log: RequestLog, id: number, response: Response): Promise<void> {
  try {
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('protobuf')) {
      const bytes = (await response.arrayBuffer()).byteLength;
      log.update(id, { responseBody: `(${bytes} bytes of protobuf; open it in the console to see them)` });
      return;
    }
    log.update(id, { responseBody: capped(await response.text()) });
  } catch {
    // The reader went away (navigation); the entry keeps its headers.
  }
}

function capped(text: string): string {
  return text.length > maxBodyChars
    ? `${text.slice(0, maxBodyChars)}\n… (${text.length} characters in all)`
    : text;
}

function isStreamed(url: URL, request: Request): boolean {
  const watch = url.searchParams.get('watch');
  if (watch === '1' || watch === 'true' || watch === '') return true;
  return (request.headers.get('accept') ?? '').includes('application/x-ndjson');
}
