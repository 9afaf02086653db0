/**
 * What handlers are given by the composition root: the catalog, the object
 * store, strategy settings, and the write pipeline (whose stages live in
 * `server/pipeline.ts`). Handlers never reach further than this.
 */

import type { KubeObject, Status } from '../api/meta';
import type { UserInfo } from '../api/authn';
import type { NamingProfile } from '../machinery/naming';
import type { Catalog } from '../registry/catalog';
import type { ObjectStore } from '../registry/object-store';
import type { ResourceType } from '../registry/resource-type';
import type { StrategyContext } from '../registry/strategy';
import type { Storage } from '../storage/types';
import type { ContinueTokens } from './continue-token';
import type { RequestContext } from './context';

export type WriteVerb = 'create' | 'update' | 'patch' | 'delete';

export interface WriteRequest {
  verb: WriteVerb;
  rt: ResourceType;
  subresource: string;
  namespace: string;
  /** From the path ('' for create: the body names the object). */
  name: string;
  dryRun: boolean;
  user: UserInfo;
  /**
   * The object the client wants, computed from the stored one (undefined
   * when absent). Called again when an optimistic update is retried.
   */
  desired?: (current: KubeObject | undefined) => KubeObject | Promise<KubeObject>;
  /** When the object is absent: create it (PUT on kinds that allow it, apply) instead of 404. */
  createWhenMissing: boolean;
  /**
   * Field ownership (metadata.managedFields): the manager, the subresource
   * it writes through (`status`, `scale`), and whether `desired` already
   * recorded it (apply does, while merging). Absent: managedFields are left
   * as the write leaves them (server-internal writes).
   */
  fieldManager?: { manager: string; subresource: string; recorded?: boolean };
  /** DELETE: preconditions and policy. */
  deleteOptions?: DeleteOptions;
}

export interface DeleteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
}

export interface WriteOutcome {
  /** The object as stored (or as it would be stored, for dry run). */
  object: KubeObject;
  /** True when the write created the object. */
  created: boolean;
  /** DELETE: true when the object is gone (false: it is terminating). */
  deleted?: boolean;
}

export interface ServerContext {
  profile: NamingProfile;
  catalog: Catalog;
  store: ObjectStore;
  storage: Storage;
  strategy(now: Date): StrategyContext;
  now(): Date;
  /** Runs admission, validation and persistence for one write. */
  runWrite(write: WriteRequest): Promise<WriteOutcome>;
  continueTokens: ContinueTokens;
  /** How long a read at a resourceVersion the server has not reached waits before 504 (real: 3 s). */
  tooLargeResourceVersionWaitMs: number;
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
  healthChecks(endpoint: string): readonly HealthCheck[];
  /** Prometheus text exposition of `/metrics`. */
  metricsText(): Promise<string>;
  /** Serves `/openapi/v2` and `/openapi/v3[/...]`. */
  openapi(ctx: RequestContext): Promise<Response>;
  /** Serves the sandbox control endpoints under `/sandbox/`. */
  sandbox(ctx: RequestContext): Promise<Response>;
  metrics: MetricsSink;
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

export interface MetricsSink {
  recordRequest(labels: RequestLabels): void;
  watchOpened(group: string, version: string, kind: string): void;
  watchClosed(group: string, version: string, kind: string): void;
  deprecatedApiRequested(labels: {
    group: string;
    version: string;
    resource: string;
    subresource: string;
    removedRelease: string;
  }): void;
}

export interface HealthCheck {
  name: string;
  ok(): boolean;
}
