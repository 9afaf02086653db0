/**
 * What the HTTP layer is given by the composition root: the catalog of
 * served resources and the REST storages installed on them, the
 * continue-token signer, watch settings, metrics, and the non-resource
 * endpoints. Handlers reach objects only through the storages' capability
 * interfaces (`registry/rest`), never through storage.
 */

import type { AdmissionTrace } from '../registry/rest/scope';
import type { Status } from '../api/meta';
import type { UserInfo } from '../api/authn';
import type { NamingProfile } from '../machinery/naming';
import type { Catalog } from '../registry/catalog';
import type { RestInstaller } from '../registry/installer';
import type { ResourceType } from '../registry/resource-type';
import type { ContinueTokens } from './continue-token';
import type { RequestContext } from './context';

/** Where requests' admission traces are kept (see admission/trace-store.ts). */
export interface TraceSink {
  open(request: {
    auditId: string;
    received: Date;
    method: string;
    path: string;
    user: string;
  }): AdmissionTrace;
  finish(auditId: string, code: number): void;
}

/** Starts a request's audit once its user is known (see server/audit.ts); undefined when the policy skips it. */
export interface AuditStarter {
  begin(
    ctx: RequestContext,
    authenticated: UserInfo,
  ): { finish(response: Response, failure?: Status): Response | Promise<Response> } | undefined;
}

export interface ServerContext {
  profile: NamingProfile;
  /** A GET's kept answer text is sent as a `Blob` made once (`ApiServerOptions.keptAnswersAsBlobs`). */
  keptAnswersAsBlobs?: boolean;
  /** Audit (absent: nothing is audited). */
  audit?: AuditStarter;
  /** Admission traces by Audit-Id (absent: requests are not traced). */
  traces?: TraceSink;
  catalog: Catalog;
  /** The REST storages of every served resource and subresource. */
  rest: RestInstaller;
  now(): Date;
  continueTokens: ContinueTokens;
  /** Feature gates in effect (e.g. WatchList). */
  featureGates: Readonly<Record<string, boolean>>;
  /** Interval of periodic watch bookmarks. */
  bookmarkIntervalMs: number;
  /**
   * Registers a callback for server shutdown (open watches end); returns its
   * removal. `reason` is set when the state was replaced underneath (a
   * sandbox import): watches send it as an ERROR event so clients relist.
   */
  onShutdown(callback: (reason?: Status) => void): () => void;
  /** storageVersionHash per served resource (computed once per catalog generation). */
  storageVersionHashes(): Promise<ReadonlyMap<ResourceType, string>>;
  /** The checks of `/healthz`, `/livez` or `/readyz`, in order. */
  healthChecks(endpoint: 'healthz' | 'livez' | 'readyz'): readonly HealthCheck[];
  /** Prometheus text exposition of `/metrics`. */
  metricsText(): Promise<string>;
  /** Serves `/openapi/v2` and `/openapi/v3[/...]`. */
  openapi(ctx: RequestContext): Promise<Response>;
  /** Serves the sandbox control endpoints under `/sandbox/`. */
  sandbox(ctx: RequestContext): Promise<Response>;
  metrics: MetricsSink;
  /** The service-account issuer's discovery metadata; absent or undefined: not served (404). */
  issuerMetadata?(): IssuerMetadata | undefined;
}

/** What the service-account issuer publishes (`/.well-known/openid-configuration`, `/openid/v1/jwks`). */
export interface IssuerMetadata {
  issuer: string;
  /** `--service-account-jwks-uri`; absent: the JWKS path at `advertisedURL`. */
  jwksURI?: string;
  /**
   * Where the server says clients reach it (what cluster-info publishes), as the real server's external
   * address; absent (not known yet): the address the client reached.
   */
  advertisedURL?: string;
  /**
   * The public keys that verify its tokens, as JWKs (with `kid`, `use`, `alg`); asked only for a request that
   * is answered (the signing key may be made by it).
   */
  keys(): Promise<readonly Readonly<Record<string, unknown>>[]>;
}

export interface RequestLabels {
  verb: string;
  dryRun: boolean;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** `cluster`, `namespace` or `resource` as the real server labels scope. */
  scope: string;
  code: number;
}

/** Labels of `apiserver_longrunning_requests` (a watch, a connect). */
export type LongRunningLabels = Omit<RequestLabels, 'dryRun' | 'code'>;

export interface MetricsSink {
  /** `apiserver_request_total` and `apiserver_request_duration_seconds`. */
  recordRequest(labels: RequestLabels, seconds: number): void;
  /** `apiserver_longrunning_requests`: returns the call that ends it. */
  longRunningStarted(labels: LongRunningLabels): () => void;
  /** `apiserver_watch_events_total` and `apiserver_watch_events_sizes`. */
  watchEventSent(group: string, version: string, kind: string, bytes: number): void;
  deprecatedApiRequested(labels: {
    group: string;
    version: string;
    resource: string;
    subresource: string;
    removedRelease: string;
  }): void;
}

/** One named health check: undefined when healthy, else why not (the per-check path prints it). */
export interface HealthCheck {
  name: string;
  check(): Promise<string | undefined> | string | undefined;
}
