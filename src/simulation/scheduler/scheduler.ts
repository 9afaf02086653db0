/**
 * The scheduler, acting as `system:kube-scheduler`: it watches pods and
 * nodes, takes the pods waiting for the default scheduler one at a time,
 * filters the nodes (`filters.ts`), ranks those that fit (`scoring.ts`)
 * and binds the pod through `pods/<name>/binding`, recording `Scheduled`.
 * A pod that fits nowhere gets `PodScheduled=False` (Unschedulable) with
 * the real message (`0/3 nodes are available: …`) and a `FailedScheduling`
 * Event, and is tried again when the cluster changes (a node appears or
 * changes, a pod goes away) after a back-off, and at the latest after five
 * minutes. Pods with scheduling gates get `SchedulingGated` and wait.
 */

import type { Node } from '../../api/node';
import type { Pod } from '../../api/pod';
import type { ApiClient } from '../../client/client';
import { isConflict, isNotFound } from '../../client/api-errors';
import { Informer, objectKey } from '../../client/informer';
import type { Clock } from '../../machinery/clock';
import type { NamingProfile } from '../../machinery/naming';
import { EventsV1Recorder } from '../events';
import { filterNode, type FilterContext, type FilterFailure } from './filters';
import { ClusterState } from './node-info';
import { pickNode } from './scoring';

export interface SchedulerContext {
  /** A client acting as `system:kube-scheduler`. */
  client: ApiClient;
  clock: Clock;
  profile: NamingProfile;
  /** The host the scheduler runs on, for its Events' reporting instance. */
  hostname: string;
}

export const defaultSchedulerName = 'default-scheduler';

/** Binding cycles in flight at once. */
const maxBindingsInFlight = 16;

const rfc3339 = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** The scheduler's FitError text for the nodes' filter failures (and a pre-filter refusal). */
export function fitErrorMessage(
  total: number,
  failures: FilterFailure[],
  options: { preFilter?: string; preemptionNever?: boolean } = {},
): string {
  let message = `0/${total} nodes are available:`;
  if (options.preFilter !== undefined) message += ` ${options.preFilter}.`;
  else {
    const histogram = new Map<string, number>();
    for (const f of failures) for (const r of f.reasons) histogram.set(r, (histogram.get(r) ?? 0) + 1);
    const reasons = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
    if (reasons.length > 0) message += ` ${reasons.join(', ')}.`;
  }
  let post: string;
  if (options.preemptionNever === true) post = 'preemption: not eligible due to preemptionPolicy=Never.';
  else {
    const histogram = new Map<string, number>();
    const count = (r: string) => histogram.set(r, (histogram.get(r) ?? 0) + 1);
    if (options.preFilter !== undefined)
      for (let i = 0; i < total; i++) count('Preemption is not helpful for scheduling');
    else
      for (const f of failures)
        count(
          f.unresolvable
            ? 'Preemption is not helpful for scheduling'
            : 'No preemption victims found for incoming pod',
        );
    const reasons = [...histogram].map(([r, n]) => `${n} ${r}`).sort();
    post = `preemption: 0/${total} nodes are available: ${reasons.join(', ')}.`;
  }
  return `${message} ${post}.`;
}

interface Claim {
  metadata?: { name?: string; deletionTimestamp?: string | null; annotations?: Record<string, string> };
  spec?: { storageClassName?: string; volumeName?: string };
  status?: { phase?: string };
}

export class Scheduler {
  private readonly state = new ClusterState();
  private readonly pending = new Set<string>();
  private readonly unschedulable = new Map<string, number>();
  private readonly attempts = new Map<string, number>();
  private readonly gated = new Set<string>();
  /** Pods assumed on a node whose binding is in flight. */
  private readonly binding = new Map<string, Promise<void>>();
  private readonly pods: Informer;
  private readonly nodes: Informer;
  private readonly namespaces: Informer;
  private readonly events: EventsV1Recorder;
  private running = false;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];
  private flushTimer: (() => void) | undefined;
  private retryTimer: (() => void) | undefined;

  constructor(private readonly ctx: SchedulerContext) {
    this.events = new EventsV1Recorder(
      ctx.client,
      ctx.clock,
      ctx.profile.suffixed('events'),
      defaultSchedulerName,
      `${defaultSchedulerName}-${ctx.hostname}`,
    );
    this.pods = new Informer(
      ctx.client,
      { group: '', version: 'v1', resource: 'pods' },
      {
        add: (o) => this.podChanged(o as Pod),
        update: (old, o) => this.podChanged(o as Pod, old as Pod),
        delete: (o) => this.podDeleted(o as Pod),
      },
    );
    this.nodes = new Informer(
      ctx.client,
      { group: '', version: 'v1', resource: 'nodes' },
      {
        add: (o) => this.nodeChanged(o as Node, undefined),
        update: (old, o) => this.nodeChanged(o as Node, old as Node),
        delete: (o) => {
          this.state.deleteNode(o.metadata?.name ?? '');
        },
      },
    );
    this.namespaces = new Informer(ctx.client, { group: '', version: 'v1', resource: 'namespaces' }, {});
  }

  start(): void {
    this.pods.start();
    this.nodes.start();
    this.namespaces.start();
    // Unschedulable pods are tried again at least every five minutes of the server's clock.
    const flush = () => {
      this.retryAll();
      this.flushTimer = this.ctx.clock.setTimer(5 * 60_000, flush);
    };
    this.flushTimer = this.ctx.clock.setTimer(5 * 60_000, flush);
  }

  stop(): void {
    this.stopped = true;
    this.pods.stop();
    this.nodes.stop();
    this.namespaces.stop();
    this.flushTimer?.();
    this.retryTimer?.();
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /** Resolves when no pod waits to be scheduled now (unschedulable ones wait for a change). */
  idle(): Promise<void> {
    if (!this.running && this.pending.size === 0 && this.binding.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wantsScheduling(pod: Pod): boolean {
    const spec = pod.spec;
    return (
      (spec?.nodeName ?? '') === '' &&
      (spec?.schedulerName ?? defaultSchedulerName) === defaultSchedulerName &&
      (pod.metadata?.deletionTimestamp ?? null) === null &&
      pod.status?.phase !== 'Succeeded' &&
      pod.status?.phase !== 'Failed'
    );
  }

  private podChanged(pod: Pod, old?: Pod): void {
    const key = objectKey(pod);
    // An unschedulable pod whose spec or labels changed (a toleration added) is tried again.
    if (
      old !== undefined &&
      JSON.stringify([old.spec, old.metadata?.labels]) !== JSON.stringify([pod.spec, pod.metadata?.labels])
    )
      this.unschedulable.delete(key);
    // A pod whose binding is in flight stays assumed on its node until the informer shows it bound.
    if (!this.binding.has(key) || (pod.spec?.nodeName ?? '') !== '') this.state.setPod(key, pod);
    if (!this.wantsScheduling(pod)) {
      this.pending.delete(key);
      this.unschedulable.delete(key);
      this.attempts.delete(key);
      this.gated.delete(key);
      return;
    }
    if ((pod.spec?.schedulingGates ?? []).length > 0) {
      this.pending.delete(key);
      if (!this.gated.has(key)) {
        this.gated.add(key);
        void this.markGated(pod);
      }
      return;
    }
    this.gated.delete(key);
    if (this.unschedulable.has(key)) return;
    this.enqueue(key);
  }

  private podDeleted(pod: Pod): void {
    const key = objectKey(pod);
    this.state.deletePod(key);
    this.pending.delete(key);
    this.unschedulable.delete(key);
    this.attempts.delete(key);
    this.gated.delete(key);
    this.events.forget(pod.metadata?.uid ?? '');
    // A pod that went away may have freed room.
    if ((pod.spec?.nodeName ?? '') !== '') this.retrySoon();
  }

  private nodeChanged(node: Node, old: Node | undefined): void {
    this.state.setNode(node);
    const relevant =
      old === undefined ||
      JSON.stringify([
        old.metadata?.labels,
        old.spec?.taints,
        old.spec?.unschedulable,
        old.status?.allocatable,
      ]) !==
        JSON.stringify([
          node.metadata?.labels,
          node.spec?.taints,
          node.spec?.unschedulable,
          node.status?.allocatable,
        ]);
    if (relevant) this.retrySoon();
  }

  /** Cluster changes move the unschedulable pods back to the queue after a short back-off. */
  private retrySoon(): void {
    if (this.unschedulable.size === 0 || this.retryTimer !== undefined) return;
    this.retryTimer = this.ctx.clock.setTimer(1000, () => {
      this.retryTimer = undefined;
      this.retryAll();
    });
  }

  private retryAll(): void {
    for (const key of [...this.unschedulable.keys()]) {
      this.unschedulable.delete(key);
      this.enqueue(key);
    }
  }

  private enqueue(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.running) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      // Both informers have listed before anything is judged: a node not seen yet is no reason to fail.
      await Promise.all([this.pods.synced, this.nodes.synced]);
      while (!this.stopped && (this.pending.size > 0 || this.binding.size > 0)) {
        if (this.pending.size === 0 || this.binding.size >= maxBindingsInFlight) {
          await Promise.race(this.binding.values());
          continue;
        }
        const key = this.pending.values().next().value as string;
        this.pending.delete(key);
        const pod = this.pods.cache.get(key) as Pod | undefined;
        if (pod === undefined || !this.wantsScheduling(pod) || this.binding.has(key)) continue;
        try {
          await this.schedule(key, pod);
        } catch {
          // A failed write (the pod changed meanwhile): its next event brings it back.
        }
      }
    } finally {
      this.running = false;
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private filterContext(pod: Pod): FilterContext {
    return {
      pod,
      state: this.state,
      profile: this.ctx.profile,
      namespaceLabels: (name) => this.namespaces.cache.get(name)?.metadata?.labels,
    };
  }

  private async schedule(key: string, pod: Pod): Promise<void> {
    const nodes = this.state.readyNodes();
    if (nodes.length === 0) return this.fail(key, pod, 'no nodes available to schedule pods');
    const volumes = await this.checkVolumes(pod);
    if (volumes.refusal !== undefined)
      return this.fail(
        key,
        pod,
        fitErrorMessage(nodes.length, [], {
          preFilter: volumes.refusal,
          preemptionNever:
            (pod.spec as { preemptionPolicy?: string } | undefined)?.preemptionPolicy === 'Never',
        }),
      );
    const ctx = this.filterContext(pod);
    const failures: FilterFailure[] = [];
    const feasible = nodes.filter((info) => {
      const failure = filterNode(ctx, info);
      if (failure !== undefined) failures.push(failure);
      return failure === undefined;
    });
    const chosen = pickNode(pod, feasible, nodes);
    const nodeName = chosen?.node?.metadata?.name;
    if (chosen === undefined || nodeName === undefined)
      return this.fail(
        key,
        pod,
        fitErrorMessage(nodes.length, failures, {
          preemptionNever:
            (pod.spec as { preemptionPolicy?: string } | undefined)?.preemptionPolicy === 'Never',
        }),
      );
    // Assumed on the node at once, so the next pod sees the room taken; the binding cycle runs beside the
    // scheduling of the next pods, as the real scheduler's does (one write at a time made the scheduler the
    // bottleneck of 1,000 pods starting).
    this.state.setPod(key, { ...pod, spec: { ...(pod.spec ?? { containers: [] }), nodeName } });
    const done = this.bind(key, pod, nodeName, volumes.select)
      .catch(() => {
        // Not bound: the pod's room is free again (its next event brings it back).
        const latest = this.pods.cache.get(key) as Pod | undefined;
        if (latest !== undefined) this.state.setPod(key, latest);
        else this.state.deletePod(key);
      })
      .finally(() => this.binding.delete(key));
    this.binding.set(key, done);
  }

  /** The pod's claims: missing, being deleted or unbound ones keep it off every node (VolumeBinding's pre-filter). */
  private async checkVolumes(pod: Pod): Promise<{ refusal?: string; select: string[] }> {
    const select: string[] = [];
    for (const v of pod.spec?.volumes ?? []) {
      const name = v.persistentVolumeClaim?.claimName;
      if (name === undefined) continue;
      let claim: Claim;
      try {
        claim = await this.ctx.client.get({
          group: '',
          version: 'v1',
          resource: 'persistentvolumeclaims',
          namespace: pod.metadata?.namespace ?? '',
          name,
        });
      } catch (e) {
        if (isNotFound(e)) return { refusal: `persistentvolumeclaim "${name}" not found`, select };
        throw e;
      }
      if ((claim.metadata?.deletionTimestamp ?? null) !== null)
        return { refusal: `persistentvolumeclaim "${name}" is being deleted`, select };
      if (claim.status?.phase === 'Bound') continue;
      const className = claim.spec?.storageClassName;
      let mode: string | undefined;
      if (className !== undefined && className !== '') {
        try {
          const sc = await this.ctx.client.get({
            group: this.ctx.profile.suffixed('storage'),
            version: 'v1',
            resource: 'storageclasses',
            name: className,
          });
          mode = (sc as { volumeBindingMode?: string }).volumeBindingMode;
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      // A claim that waits for its first consumer is provisioned where the pod goes.
      if (mode === 'WaitForFirstConsumer') select.push(name);
      else return { refusal: 'pod has unbound immediate PersistentVolumeClaims', select };
    }
    return { select };
  }

  private async bind(key: string, pod: Pod, nodeName: string, claims: string[]): Promise<void> {
    const m = pod.metadata ?? {};
    const namespace = m.namespace ?? '';
    // The claims waiting for a consumer learn where it goes, for the provisioner.
    for (const claim of claims)
      await this.ctx.client
        .patch(
          { group: '', version: 'v1', resource: 'persistentvolumeclaims', namespace, name: claim },
          {
            metadata: {
              annotations: { [this.ctx.profile.subPrefixed('volume', 'selected-node')]: nodeName },
            },
          },
          'application/merge-patch+json',
        )
        .catch(() => undefined);
    try {
      await this.ctx.client.send(
        'POST',
        `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(m.name ?? '')}/binding`,
        {
          body: {
            apiVersion: 'v1',
            kind: 'Binding',
            metadata: { name: m.name, namespace, uid: m.uid },
            target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
          },
        },
      );
    } catch (e) {
      // Bound meanwhile, or gone.
      if (isConflict(e) || isNotFound(e)) {
        const latest = this.pods.cache.get(key) as Pod | undefined;
        if (latest !== undefined) this.state.setPod(key, latest);
        else this.state.deletePod(key);
        return;
      }
      throw e;
    }
    this.attempts.delete(key);
    this.events.record(
      this.regarding(pod),
      'Normal',
      'Scheduled',
      'Binding',
      `Successfully assigned ${namespace}/${m.name ?? ''} to ${nodeName}`,
    );
  }

  private regarding(pod: Pod) {
    const m = pod.metadata ?? {};
    return {
      kind: 'Pod',
      namespace: m.namespace ?? '',
      name: m.name ?? '',
      uid: m.uid ?? '',
      apiVersion: 'v1',
      ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
    };
  }

  private async fail(key: string, pod: Pod, message: string): Promise<void> {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    this.unschedulable.set(key, n);
    this.events.record(this.regarding(pod), 'Warning', 'FailedScheduling', 'Scheduling', message);
    await this.setCondition(pod, 'Unschedulable', message);
  }

  private async markGated(pod: Pod): Promise<void> {
    await this.setCondition(
      pod,
      'SchedulingGated',
      'Scheduling is blocked due to non-empty scheduling gates',
    ).catch(() => undefined);
  }

  private async setCondition(pod: Pod, reason: string, message: string): Promise<void> {
    const old = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (old?.status === 'False' && old.reason === reason && old.message === message) return;
    const m = pod.metadata ?? {};
    await this.ctx.client.patch(
      {
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: m.namespace ?? '',
        name: m.name ?? '',
        subresource: 'status',
      },
      {
        metadata: { uid: m.uid },
        status: {
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              lastProbeTime: null,
              lastTransitionTime:
                old?.status === 'False'
                  ? (old.lastTransitionTime ?? rfc3339(this.ctx.clock.now()))
                  : rfc3339(this.ctx.clock.now()),
              reason,
              message,
            },
          ],
        },
      },
      'application/strategic-merge-patch+json',
    );
  }
}
