/**
 * kubectl's factory (pkg/cmd/util/factory.go): from the global flags and
 * the kubeconfig it makes, once per command, the resolved configuration,
 * the HTTP transport (credentials, impersonation, the user agent, the
 * request records the Terminal shows and the `-v` lines), the API client,
 * discovery and the REST mapper that turns what a user typed into a
 * resource.
 */

import { createClient, parseWarnings, type ApiClient, type FetchFunction } from '../client';
import type { Discovery } from '../client';
import { resolveConfig, type ResolvedConfig } from './config/kubeconfig';
import type { FlagSet } from './flags/pflag';
import type { KubectlIO, RequestRecord } from './io';
import { KubectlError } from './errors';
import { klogLine } from './klog';
import { RestMapper } from './restmapper';
import { upstreamNames, type CompiledNames } from './names';

export const clientVersion = {
  major: '1',
  minor: '27',
  gitVersion: 'v1.27.16',
  gitCommit: 'cbb86e0d7f4a049666fac0551e8b02ef3d6c3d9a',
  gitTreeState: 'clean',
  buildDate: '2024-07-17T01:53:56Z',
  goVersion: 'go1.22.5',
  compiler: 'gc',
  platform: 'linux/amd64',
};

export const userAgent = `kubectl/${clientVersion.gitVersion} (${clientVersion.platform}) kubernetes/${clientVersion.gitCommit.slice(0, 7)}`;

/**
 * Each request the transport is handed, with the caller's request whose signal its own signal follows (the
 * client's, which carries a `--timeout`'s or a stopped watch's abort). In Node a `Request`'s signal follows
 * another signal only while the `Request` object lives (undici holds its controller from the `Request` alone;
 * nodejs/node#55428): once a watch's response is under way nothing else holds the caller's request, a garbage
 * collection then cuts the chain, and the abort never reaches the connection, which waits for the server's
 * end of the watch. The transport keeps the request it was handed while its exchange lasts
 * (hosts/node/kubectl/transport.ts); this keeps the caller's with it.
 */
const followed = new WeakMap<Request, Request>();

export class Factory {
  private resolved: Promise<ResolvedConfig> | undefined;
  private discovered: Promise<Discovery> | undefined;
  private mapperPromise: Promise<RestMapper> | undefined;
  private apiClient: Promise<ApiClient> | undefined;
  private readonly warned = new Set<string>();
  /** Every request of this command, in order. */
  readonly requests: RequestRecord[] = [];

  constructor(
    readonly io: KubectlIO,
    readonly flags: FlagSet,
  ) {}

  /** The group names this kubectl was built with. */
  get names(): CompiledNames {
    return this.io.names ?? upstreamNames;
  }

  get verbosity(): number {
    return this.flags.int('v');
  }

  /** A `-v` line on standard error when the verbosity is at least `level`. */
  log(level: number, source: string, text: string): void {
    if (this.verbosity >= level) this.io.stderr(klogLine(this.io.now(), this.io.pid ?? 1, source, text));
  }

  config(): Promise<ResolvedConfig> {
    this.resolved ??= (async () => {
      const explicit = this.flags.string('kubeconfig');
      const config = await this.io.kubeconfig.load(explicit);
      this.log(6, 'loader.go:373', `Config loaded from file:  ${this.io.kubeconfig.describe(explicit)}`);
      return resolveConfig(config, this.flags, (path) => this.io.files.read(path));
    })();
    return this.resolved;
  }

  /** The namespace a command works in, and whether `-n` named it. */
  async namespace(): Promise<{ namespace: string; explicit: boolean }> {
    const c = await this.config();
    return { namespace: c.namespace, explicit: c.namespaceExplicit };
  }

  client(): Promise<ApiClient> {
    this.apiClient ??= (async () => {
      const resolved = await this.config();
      if (resolved.connection.server === '') throw new NoServerError();
      return createClient({ baseUrl: resolved.connection.server, fetch: this.fetchFor(resolved) });
    })();
    return this.apiClient;
  }

  discovery(): Promise<Discovery> {
    this.discovered ??= this.client().then((c) => c.discovery());
    return this.discovered;
  }

  mapper(): Promise<RestMapper> {
    this.mapperPromise ??= this.discovery().then((d) => new RestMapper(d));
    return this.mapperPromise;
  }

  private fetchFor(resolved: ResolvedConfig): FetchFunction {
    const c = resolved.connection;
    const base = this.io.transport(c);
    const timeout = this.flags.string('request-timeout');
    const timeoutMs = timeout === '' || timeout === '0' ? 0 : parseTimeout(timeout);
    return async (request) => {
      const headers = new Headers(request.headers);
      headers.set('user-agent', userAgent);
      if (c.token !== undefined) headers.set('authorization', `Bearer ${c.token}`);
      else if (c.username !== undefined)
        headers.set('authorization', `Basic ${btoa(`${c.username}:${c.password ?? ''}`)}`);
      if (c.impersonate !== undefined) {
        if (c.impersonate.user !== undefined) headers.set('impersonate-user', c.impersonate.user);
        for (const g of c.impersonate.groups) headers.append('impersonate-group', g);
        if (c.impersonate.uid !== undefined) headers.set('impersonate-uid', c.impersonate.uid);
      }
      const body = request.body === null ? undefined : await request.text();
      const signals = [request.signal, this.io.signal].filter((s): s is AbortSignal => s !== undefined);
      if (timeoutMs > 0) signals.push(AbortSignal.timeout(timeoutMs));
      const init: RequestInit = { method: request.method, headers, signal: AbortSignal.any(signals) };
      if (body !== undefined) init.body = body;
      const sent = new Request(request.url, init);
      // The request sent follows the caller's request's signal through it, so the caller's request lives as
      // long as the one sent (see `followed`).
      followed.set(sent, request);
      const requestHeaders: Record<string, string> = {};
      headers.forEach((v, k) => (requestHeaders[k] = k === 'authorization' ? '<masked>' : v));
      if (this.verbosity >= 7) {
        this.log(7, 'round_trippers.go:463', `${request.method} ${request.url}`);
        this.log(7, 'round_trippers.go:469', 'Request Headers:');
        headers.forEach((v, k) =>
          this.log(
            7,
            'round_trippers.go:473',
            `    ${canonicalHeader(k)}: ${k === 'authorization' ? v.replace(/ .*/, ' <masked>') : v}`,
          ),
        );
        if (body !== undefined && this.verbosity >= 8)
          this.log(8, 'request.go:1188', `Request Body: ${body}`);
      }
      const started = Date.now();
      let response: Response;
      try {
        response = await base(sent);
      } catch (error) {
        if (init.signal?.aborted) throw error;
        throw new ConnectionError(request.url, error);
      }
      for (const warning of parseWarnings(response.headers.get('warning'))) {
        if (this.warned.has(warning)) continue;
        this.warned.add(warning);
        this.io.stderr(`Warning: ${warning}\n`);
      }
      const durationMs = Date.now() - started;
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((v, k) => (responseHeaders[k] = v));
      const auditId = response.headers.get('audit-id') ?? undefined;
      const record: RequestRecord = {
        method: request.method,
        url: request.url,
        status: response.status,
        statusText: response.statusText || statusText(response.status),
        durationMs,
        requestHeaders,
        responseHeaders,
        ...(auditId !== undefined ? { auditId } : {}),
        ...(body !== undefined ? { requestBody: body } : {}),
      };
      this.requests.push(record);
      this.io.onRequest?.(record);
      if (this.verbosity >= 7) {
        this.log(
          7,
          'round_trippers.go:574',
          `Response Status: ${response.status} ${record.statusText} in ${durationMs} milliseconds`,
        );
        if (this.verbosity >= 8) {
          this.log(8, 'round_trippers.go:577', 'Response Headers:');
          response.headers.forEach((v, k) =>
            this.log(8, 'round_trippers.go:580', `    ${canonicalHeader(k)}: ${v}`),
          );
        }
      } else {
        this.log(
          6,
          'round_trippers.go:553',
          `${request.method} ${request.url} ${response.status} ${record.statusText} in ${durationMs} milliseconds`,
        );
      }
      return response;
    };
  }
}

/** The server could not be reached (client-go's url.Error). */
export class ConnectionError extends KubectlError {
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const host = URL.canParse(url) ? new URL(url).host : url;
    super(
      /refused/i.test(reason) || (cause as { code?: string } | undefined)?.code === 'ECONNREFUSED'
        ? `The connection to the server ${host} was refused - did you specify the right host or port?`
        : `Unable to connect to the server: ${reason}`,
    );
  }
}

/** No server in the kubeconfig or flags: kubectl falls back to localhost:8080 and fails to connect. */
export class NoServerError extends KubectlError {
  constructor() {
    super(
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?',
    );
  }
}

function parseTimeout(text: string): number {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (m === null) return 0;
  const unit = { ms: 1, s: 1000, m: 60000, h: 3600000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * unit;
}

function canonicalHeader(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

const statusTexts: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  410: 'Gone',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusText(code: number): string {
  return statusTexts[code] ?? '';
}
