/**
 * The requests a learner sent, as step checks read them (`requests` in CEL):
 * method, path, query, headers, the body sent and the answer's status,
 * Status reason, headers, warnings and body, JSON bodies parsed. The app's
 * own request log feeds it in the browser (src/ui/learn adapts it); in Node,
 * `recordingFetch` records a client's exchanges. A journal is an external
 * store: `subscribe` is how the engine re-evaluates a check when a request
 * completes, without polling.
 */

import type { JsonValue } from '../api/meta';
import type { FetchFunction } from '../client/index';
import { parseWarnings } from '../client/index';

export interface JournalEntry {
  id: number;
  /** Epoch milliseconds when it was sent. */
  at: number;
  method: string;
  /** The path without the query. */
  path: string;
  query: Record<string, string>;
  /** Lower-case names. */
  requestHeaders: Record<string, string>;
  /** The body sent, parsed when it was JSON. */
  body?: JsonValue;
  /** 0 until the answer came (or when none came). */
  status: number;
  /** The `kind` of a JSON answer (`Table`, `Status`, `ConfigMap`, …); empty otherwise. */
  kind: string;
  /** The Status reason of an error answer (`Conflict`, `Forbidden`, `AlreadyExists`, …); empty otherwise. */
  reason: string;
  /** The Status message of an error answer; empty otherwise. */
  message: string;
  responseHeaders: Record<string, string>;
  warnings: string[];
  /** The answer's body, parsed when it was JSON (not kept for watches and other streams). */
  response?: JsonValue;
  streamed: boolean;
}

/** What the engine reads of a journal. */
export interface RequestSource {
  entries(): readonly JournalEntry[];
  subscribe(listener: () => void): () => void;
}

const maxEntries = 400;
/** Longer answers are kept cut (as the app's request log keeps them): `/metrics` alone is megabytes. */
const maxBodyChars = 200_000;

/** A journal kept in memory, for hosts without a request log of their own (Node, tests). */
export class RequestJournal implements RequestSource {
  private list: JournalEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  entries(): readonly JournalEntry[] {
    return this.list;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  record(entry: Omit<JournalEntry, 'id'>): void {
    this.list = [...this.list, { ...entry, id: this.nextId++ }].slice(-maxEntries);
    for (const listener of this.listeners) listener();
  }
}

/** A `fetch` that records each exchange in `journal` once its answer (or, for a stream, its head) arrived. */
export function recordingFetch(journal: RequestJournal, inner: FetchFunction): FetchFunction {
  return async (request) => {
    const at = Date.now();
    const sent = request.body === null ? undefined : await request.clone().text();
    const response = await inner(request);
    const streamed = isStreamed(request);
    const full = streamed ? undefined : await response.clone().text();
    const text =
      full !== undefined && full.length > maxBodyChars
        ? `${full.slice(0, maxBodyChars)}\n… (${full.length} characters in all)`
        : full;
    journal.record(
      journalEntry({
        at,
        method: request.method,
        url: request.url,
        requestHeaders: pairs(request.headers),
        ...(sent !== undefined ? { requestBody: sent } : {}),
        status: response.status,
        responseHeaders: pairs(response.headers),
        ...(text !== undefined ? { responseBody: text } : {}),
        streamed,
      }),
    );
    return response;
  };
}

/** An exchange as a host's log holds it (raw texts), as a journal entry. */
export interface RawExchange {
  at: number;
  method: string;
  /** Absolute, or a path with its query. */
  url: string;
  requestHeaders: [string, string][];
  requestBody?: string;
  status?: number;
  responseHeaders?: [string, string][];
  responseBody?: string;
  streamed: boolean;
}

export function journalEntry(exchange: RawExchange): Omit<JournalEntry, 'id'> {
  const url = new URL(exchange.url, 'http://sandbox.invalid');
  const responseHeaders = Object.fromEntries(
    (exchange.responseHeaders ?? []).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const response = exchange.responseBody === undefined ? undefined : parsed(exchange.responseBody);
  const body = exchange.requestBody === undefined ? undefined : parsed(exchange.requestBody);
  const record =
    typeof response === 'object' && response !== null && !Array.isArray(response) ? response : undefined;
  const text = (v: JsonValue | undefined): string => (typeof v === 'string' ? v : '');
  const status = record?.['kind'] === 'Status';
  return {
    at: exchange.at,
    method: exchange.method.toUpperCase(),
    path: url.pathname,
    query: searchRecord(url.searchParams),
    requestHeaders: Object.fromEntries(exchange.requestHeaders.map(([k, v]) => [k.toLowerCase(), v])),
    ...(body !== undefined ? { body } : {}),
    status: exchange.status ?? 0,
    kind: text(record?.['kind']),
    reason: status ? text(record?.['reason']) : '',
    message: status ? text(record?.['message']) : '',
    responseHeaders,
    warnings: parseWarnings(responseHeaders['warning'] ?? null),
    ...(response !== undefined ? { response } : {}),
    streamed: exchange.streamed,
  };
}

function parsed(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function isStreamed(request: Request): boolean {
  const watch = new URL(request.url, 'http://sandbox.invalid').searchParams.get('watch');
  return watch === '1' || watch === 'true' || watch === '';
}

/** A `Headers` as `[name, value]` pairs (the core's libraries have no iterable Headers). */
export function pairs(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out;
}

/** A `Headers` as a record with lower-case names. */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name.toLowerCase()] = value));
  return out;
}

function searchRecord(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  params.forEach((value, name) => (out[name] = value));
  return out;
}
