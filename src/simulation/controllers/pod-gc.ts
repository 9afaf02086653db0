/**
 * The pod garbage collector (`system:controller:pod-garbage-collector`),
 * every twenty seconds of the server's clock, as the controller manager's
 * podgc: it force-deletes (grace period 0) pods bound to a node that no
 * longer exists (after a 40 s quarantine, marked `DisruptionTarget`
 * `DeletionByPodGC` first), terminating pods that were never scheduled,
 * terminating pods on nodes tainted out-of-service, and the oldest
 * terminated pods beyond the threshold (12,500).
 */

import type { Node } from '../../api/node';
import type { Pod } from '../../api/pod';
import type { ApiClient } from '../../client/client';
import { isNotFound } from '../../client/api-errors';
import { Informer } from '../../client/informer';
import type { Clock } from '../../machinery/clock';
import type { NamingProfile } from '../../machinery/naming';

export interface PodGCContext {
  /** Writes as the controller's own service account. */
  client: ApiClient;
  /** Lists and watches, as the controller manager's shared informers do (`system:kube-controller-manager`). */
  informerClient?: ApiClient;
  clock: Clock;
  profile: NamingProfile;
  /** `--terminated-pod-gc-threshold`; default 12,500. */
  terminatedThreshold?: number;
}

const periodMs = 20_000;
const quarantineMs = 40_000;

const rfc3339 = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

export class PodGC {
  readonly name = 'pod-garbage-collector';
  private readonly pods: Informer;
  private readonly nodes: Informer;
  /** Nodes found missing, with when: a pod's node must stay missing for the quarantine. */
  private readonly missingSince = new Map<string, number>();
  private cancel: (() => void) | undefined;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly ctx: PodGCContext) {
    this.pods = new Informer(
      ctx.informerClient ?? ctx.client,
      { group: '', version: 'v1', resource: 'pods' },
      {},
    );
    this.nodes = new Informer(
      ctx.informerClient ?? ctx.client,
      { group: '', version: 'v1', resource: 'nodes' },
      {
        add: (o) => this.missingSince.delete(o.metadata?.name ?? ''),
      },
    );
  }

  start(): void {
    this.pods.start();
    this.nodes.start();
    const tick = () => {
      if (this.stopped) return;
      this.busy = this.busy.then(() => this.collect()).catch(() => undefined);
      this.cancel = this.ctx.clock.setTimer(periodMs, tick);
    };
    this.cancel = this.ctx.clock.setTimer(periodMs, tick);
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.pods.stop();
    this.nodes.stop();
  }

  idle(): Promise<void> {
    return this.busy;
  }

  private async collect(): Promise<void> {
    await Promise.all([this.pods.synced, this.nodes.synced]);
    const now = this.ctx.clock.now().getTime();
    const pods = [...this.pods.cache.values()] as Pod[];
    const outOfService = this.ctx.profile.subPrefixed('node', 'out-of-service');
    const terminated = pods.filter((p) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed');
    const threshold = this.ctx.terminatedThreshold ?? 12_500;
    if (terminated.length > threshold) {
      const oldest = terminated.sort((a, b) =>
        (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? ''),
      );
      for (const p of oldest.slice(0, terminated.length - threshold)) await this.forceDelete(p);
    }
    for (const pod of pods) {
      const nodeName = pod.spec?.nodeName ?? '';
      const terminating = (pod.metadata?.deletionTimestamp ?? null) !== null;
      if (nodeName === '') {
        if (terminating) await this.forceDelete(pod);
        continue;
      }
      const node = this.nodes.cache.get(nodeName) as Node | undefined;
      if (node === undefined) {
        const since = this.missingSince.get(nodeName) ?? now;
        this.missingSince.set(nodeName, since);
        if (now - since >= quarantineMs)
          await this.forceDelete(pod, 'DeletionByPodGC', 'PodGC: node no longer exists');
        continue;
      }
      if (
        terminating &&
        (node.spec?.taints ?? []).some((t) => t.key === outOfService && t.effect === 'NoExecute')
      )
        await this.forceDelete(pod, 'DeletionByPodGC', 'PodGC: node is out-of-service');
    }
  }

  private async forceDelete(pod: Pod, reason?: string, message?: string): Promise<void> {
    const m = pod.metadata ?? {};
    const ref = {
      group: '',
      version: 'v1',
      resource: 'pods',
      namespace: m.namespace ?? '',
      name: m.name ?? '',
    };
    try {
      if (reason !== undefined && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed')
        await this.ctx.client.patch(
          { ...ref, subresource: 'status' },
          {
            metadata: { uid: m.uid },
            status: {
              phase: 'Failed',
              conditions: [
                {
                  type: 'DisruptionTarget',
                  status: 'True',
                  lastProbeTime: null,
                  lastTransitionTime: rfc3339(this.ctx.clock.now().getTime()),
                  reason,
                  message,
                },
              ],
            },
          },
          'application/strategic-merge-patch+json',
        );
      await this.ctx.client.delete(ref, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        gracePeriodSeconds: 0,
        preconditions: { uid: m.uid },
      });
    } catch (e) {
      if (!isNotFound(e)) return;
    }
  }
}
