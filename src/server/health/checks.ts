/**
 * The named health checks of `/healthz`, `/livez` and `/readyz`, as a v1.27
 * kube-apiserver registers them, limited to what this server really does:
 * `ping`, `log`, `etcd` (a read of the store, failing when the store is down
 * or slower than the real 2 s health-check timeout), on `/readyz` also
 * `etcd-readiness` and `informer-sync`, then one `poststarthook/<name>` check
 * per start-up step this server runs, each failing (`not finished`) until
 * its step has completed, and `shutdown` last on `/readyz`. On `/livez` the
 * post-start checks pass during `--livez-grace-period`, counted from the
 * server's construction as the real server counts it, so a slow start is
 * not mistaken for a dead server; `/readyz` has no grace period.
 */

import type { HealthCheck } from '../../http/server-context';

/** The start-up steps with a post-start check, in the order the real server lists them. */
export const postStartHooks = [
  'poststarthook/start-kube-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/storage-object-count-tracker-hook',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/bootstrap-controller',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
] as const;

export type PostStartHook = (typeof postStartHooks)[number];

/** The hooks that complete when the start-up objects exist (bootstrapState). */
export const bootstrapHooks: readonly PostStartHook[] = [
  'poststarthook/bootstrap-controller',
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
];

export interface HealthOptions {
  /** Reads the store; rejects when it cannot be read. */
  storeProbe: () => Promise<unknown>;
  /** `--livez-grace-period` in milliseconds (default 0). */
  livezGracePeriodMs?: number;
  /** The real `--etcd-healthcheck-timeout` / `--etcd-readycheck-timeout` default: 2 s. */
  probeTimeoutMs?: number;
  /** Steps this server does not run (their checks are not registered). */
  without?: readonly PostStartHook[];
  clock?: () => number;
}

export class ServerHealth {
  private readonly done = new Set<PostStartHook>();
  private readonly hooks: readonly PostStartHook[];
  private readonly livezFrom: number;
  private readonly clock: () => number;
  private informersSynced = false;
  private shuttingDown = false;
  private readonly lists: Record<'healthz' | 'livez' | 'readyz', readonly HealthCheck[]>;

  constructor(private readonly options: HealthOptions) {
    this.clock = options.clock ?? (() => Date.now());
    this.livezFrom = this.clock() + (options.livezGracePeriodMs ?? 0);
    const without = new Set(options.without ?? []);
    this.hooks = postStartHooks.filter((h) => !without.has(h));
    const ping: HealthCheck = { name: 'ping', check: () => undefined };
    const log: HealthCheck = { name: 'log', check: () => undefined };
    const etcd: HealthCheck = { name: 'etcd', check: () => this.probe() };
    const hookChecks = this.hooks.map((name) => ({ name, check: () => this.hookState(name) }));
    const delayed = hookChecks.map((c) => ({
      name: c.name,
      // Before the grace period ends the check is not run at all: it passes.
      check: () => (this.clock() > this.livezFrom ? c.check() : undefined),
    }));
    this.lists = {
      healthz: [ping, log, etcd, ...hookChecks],
      livez: [ping, log, etcd, ...delayed],
      readyz: [
        ping,
        log,
        etcd,
        { name: 'etcd-readiness', check: () => this.probe() },
        {
          name: 'informer-sync',
          check: () => (this.informersSynced ? undefined : 'informers not started yet'),
        },
        ...hookChecks,
        { name: 'shutdown', check: () => (this.shuttingDown ? 'process is shutting down' : undefined) },
      ],
    };
  }

  checks(endpoint: 'healthz' | 'livez' | 'readyz'): readonly HealthCheck[] {
    return this.lists[endpoint];
  }

  /** A start-up step has completed (a completed step stays completed, as a real post-start hook does). */
  complete(...hooks: readonly PostStartHook[]): void {
    for (const h of hooks) this.done.add(h);
  }

  markInformersSynced(): void {
    this.informersSynced = true;
  }

  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  private hookState(name: PostStartHook): string | undefined {
    return this.done.has(name) ? undefined : 'not finished';
  }

  private async probe(): Promise<string | undefined> {
    const timeoutMs = this.options.probeTimeoutMs ?? 2000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve('context deadline exceeded'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([
        this.options.storeProbe().then(
          () => undefined,
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        ),
        deadline,
      ]);
      return outcome === undefined ? undefined : `error getting data from etcd: ${outcome}`;
    } finally {
      clearTimeout(timer);
    }
  }
}
