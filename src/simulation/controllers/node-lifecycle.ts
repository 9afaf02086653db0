/**
 * The node lifecycle controller (`system:controller:node-controller`), as
 * the controller manager runs it, on the server's clock:
 * - health: a node whose agent renewed neither its Lease nor its status
 *   for the grace period (40 s; 60 s for one that never posted) gets its
 *   conditions set to Unknown (`Kubelet stopped posting node status.`),
 *   its pods' Ready condition set to False (`NodeNotReady` Events);
 * - taints from conditions: `not-ready`/`unreachable` NoSchedule and
 *   NoExecute, the pressure taints, and `unschedulable` for a cordoned
 *   node (the profile's names: `node.<domain>/…`);
 * - taint-based eviction: a pod on a node with NoExecute taints it does not
 *   tolerate is deleted at once, one that tolerates them for a while
 *   (DefaultTolerationSeconds gives 300 s) once that time has passed since
 *   the taint was added — marked `DisruptionTarget` first, as v1.27 does;
 * - disruption: when no node is Ready (every zone fully disrupted, as a
 *   control plane cut off from all its nodes sees it), the controller
 *   stops tainting `NoExecute` and lifts the taints it put, so nothing is
 *   evicted; once a node is Ready again each node gets a fresh grace
 *   period. Nodes labelled `node.<domain>/exclude-disruption` are not
 *   counted.
 * After the clock is moved forward the health check waits a moment, so
 * that running agents (whose timers fired too) renew first.
 */

import type { Lease, Node, NodeCondition, Taint } from '../../api/node';
import type { Pod } from '../../api/pod';
import type { ApiClient } from '../../client/client';
import { isNotFound } from '../../client/api-errors';
import { Informer } from '../../client/informer';
import type { Clock } from '../../machinery/clock';
import type { NamingProfile } from '../../machinery/naming';
import { toleratesTaint } from '../../machinery/scheduling/taints';
import { CoreEventRecorder } from '../events';

export interface NodeLifecycleContext {
  /** Writes as the controller's own service account. */
  client: ApiClient;
  /** Lists and watches, as the controller manager's shared informers do (`system:kube-controller-manager`). */
  informerClient?: ApiClient;
  clock: Clock;
  profile: NamingProfile;
  /** Told after each move of the server's clock. */
  onClockAdvance?(listener: () => void): () => void;
}

const gracePeriodMs = 40_000;
const startupGracePeriodMs = 60_000;
const monitorPeriodMs = 5_000;
/** Real time the monitor waits after a clock move, for the running agents' renewals to land. */
const settleAfterAdvanceMs = 1000;

const rfc3339 = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

interface Health {
  /** When (server clock) the controller last saw the node's agent alive. */
  probeMs: number;
  lastRenew: string | undefined;
  lastHeartbeat: string | undefined;
}

export class NodeLifecycleController {
  readonly name = 'node-lifecycle-controller';
  private readonly nodes: Informer;
  private readonly leases: Informer;
  private readonly pods: Informer;
  private readonly health = new Map<string, Health>();
  private readonly evictions = new Map<string, { at: number; cancel: () => void }>();
  private readonly events: CoreEventRecorder;
  private readonly taintEvents: CoreEventRecorder;
  private readonly keys: {
    notReady: string;
    unreachable: string;
    unschedulable: string;
    excludeDisruption: string;
    pressure: Record<string, string>;
  };
  private cancelMonitor: (() => void) | undefined;
  private stopAdvance: (() => void) | undefined;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  /** When (real time) the server's clock last moved forward. */
  private settlingSince = 0;
  /** Upstream's "master disruption mode": no counted node is Ready, so no NoExecute taints (see disruption()). */
  private disrupted = false;

  constructor(private readonly ctx: NodeLifecycleContext) {
    const key = (name: string) => ctx.profile.subPrefixed('node', name);
    this.keys = {
      notReady: key('not-ready'),
      unreachable: key('unreachable'),
      unschedulable: key('unschedulable'),
      excludeDisruption: key('exclude-disruption'),
      pressure: {
        MemoryPressure: key('memory-pressure'),
        DiskPressure: key('disk-pressure'),
        PIDPressure: key('pid-pressure'),
        NetworkUnavailable: key('network-unavailable'),
      },
    };
    this.events = new CoreEventRecorder(ctx.client, ctx.clock, { component: 'node-controller' });
    this.taintEvents = new CoreEventRecorder(ctx.client, ctx.clock, { component: 'taint-controller' });
    this.nodes = new Informer(
      ctx.informerClient ?? ctx.client,
      { group: '', version: 'v1', resource: 'nodes' },
      {
        add: (o) => this.nodeSeen(o as Node, true),
        update: (_old, o) => this.nodeSeen(o as Node, false),
        delete: (o) => {
          this.health.delete(o.metadata?.name ?? '');
        },
      },
    );
    this.leases = new Informer(
      ctx.informerClient ?? ctx.client,
      {
        group: ctx.profile.suffixed('coordination'),
        version: 'v1',
        resource: 'leases',
        namespace: ctx.profile.nodeLeaseNamespace,
      },
      { add: (o) => this.leaseSeen(o as Lease), update: (_old, o) => this.leaseSeen(o as Lease) },
    );
    this.pods = new Informer(
      ctx.informerClient ?? ctx.client,
      { group: '', version: 'v1', resource: 'pods' },
      {
        add: (o) => this.podSeen(o as Pod),
        update: (_old, o) => this.podSeen(o as Pod),
        delete: (o) => this.cancelEviction(o.metadata?.uid ?? ''),
      },
    );
  }

  start(): void {
    this.nodes.start();
    this.leases.start();
    this.pods.start();
    const tick = () => {
      this.enqueue(() => this.monitor());
      this.cancelMonitor = this.ctx.clock.setTimer(monitorPeriodMs, tick);
    };
    this.cancelMonitor = this.ctx.clock.setTimer(monitorPeriodMs, tick);
    this.stopAdvance = this.ctx.onClockAdvance?.(() => {
      // The agents' timers fired with the move too: their renewals land before the nodes are judged.
      this.settlingSince = Date.now();
      setTimeout(() => this.enqueue(() => this.monitor()), settleAfterAdvanceMs + 50);
    });
  }

  stop(): void {
    this.stopped = true;
    this.cancelMonitor?.();
    this.stopAdvance?.();
    this.nodes.stop();
    this.leases.stop();
    this.pods.stop();
    for (const e of this.evictions.values()) e.cancel();
    this.evictions.clear();
  }

  idle(): Promise<void> {
    return this.busy;
  }

  private enqueue(work: () => Promise<void>): void {
    if (this.stopped) return;
    this.busy = this.busy.then(work).catch(() => undefined);
  }

  private now(): number {
    return this.ctx.clock.now().getTime();
  }

  private nodeSeen(node: Node, added: boolean): void {
    const name = node.metadata?.name ?? '';
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    const h = this.health.get(name);
    if (h === undefined) {
      this.health.set(name, {
        probeMs: this.now(),
        lastRenew: undefined,
        lastHeartbeat: ready?.lastHeartbeatTime ?? undefined,
      });
      if (added)
        this.events.record(
          { kind: 'Node', name, uid: node.metadata?.uid ?? '', apiVersion: 'v1' },
          'Normal',
          'RegisteredNode',
          `Node ${name} event: Registered Node ${name} in Controller`,
        );
    } else if ((ready?.lastHeartbeatTime ?? undefined) !== h.lastHeartbeat && ready?.status !== 'Unknown') {
      h.lastHeartbeat = ready?.lastHeartbeatTime ?? undefined;
      h.probeMs = this.now();
    }
    this.enqueue(() => this.reconcileTaints(name));
  }

  private leaseSeen(lease: Lease): void {
    const h = this.health.get(lease.metadata?.name ?? '');
    const renew = lease.spec?.renewTime ?? undefined;
    if (h === undefined || renew === h.lastRenew) return;
    h.lastRenew = renew;
    h.probeMs = this.now();
  }

  /** Nodes whose agent went quiet get Unknown conditions, and their pods Ready=False. */
  private async monitor(): Promise<void> {
    // Right after a move of the clock the agents are still renewing: the run after the settling judges.
    if (Date.now() - this.settlingSince < settleAfterAdvanceMs) return;
    const now = this.now();
    const markedNow = new Set<string>();
    for (const obj of this.nodes.cache.values()) {
      const node = obj as Node;
      const name = node.metadata?.name ?? '';
      const h = this.health.get(name);
      if (h === undefined) continue;
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
      const neverPosted = ready === undefined;
      const grace = neverPosted ? startupGracePeriodMs : gracePeriodMs;
      if (now <= h.probeMs + grace || ready?.status === 'Unknown') continue;
      await this.markUnknown(node, neverPosted, now);
      markedNow.add(name);
    }
    await this.disruption(markedNow, now);
  }

  /**
   * Upstream's handling of a disruption, for the case it changes behaviour in: every zone fully disrupted, which
   * is no counted node Ready (a zone is fully disrupted when it has nodes and none is Ready). Entering it lifts
   * the NoExecute taints and stops adding them (no evictions: the control plane more likely lost the network than
   * all nodes died); leaving it gives every node a new grace period before it is judged again. The eviction rate
   * limits of a partial disruption are not modelled: this controller taints at once.
   */
  private async disruption(markedNow: ReadonlySet<string>, now: number): Promise<void> {
    const counted = [...this.nodes.cache.values()].filter(
      (n) => n.metadata?.labels?.[this.keys.excludeDisruption] === undefined,
    ) as Node[];
    // No node at all: neither state changes (upstream's loop over no zones).
    if (counted.length === 0) return;
    const allDown = counted.every(
      (n) =>
        markedNow.has(n.metadata?.name ?? '') ||
        n.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'True',
    );
    if (allDown === this.disrupted) return;
    this.disrupted = allDown;
    if (!allDown) for (const h of this.health.values()) h.probeMs = now;
    for (const n of counted) await this.reconcileTaints(n.metadata?.name ?? '');
  }

  private async markUnknown(node: Node, neverPosted: boolean, now: number): Promise<void> {
    const name = node.metadata?.name ?? '';
    const reason = neverPosted ? 'NodeStatusNeverUpdated' : 'NodeStatusUnknown';
    const message = neverPosted
      ? 'Kubelet never posted node status.'
      : 'Kubelet stopped posting node status.';
    const types = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure'];
    const old = node.status?.conditions ?? [];
    const conditions: NodeCondition[] = types.map((type) => {
      const before = old.find((c) => c.type === type);
      return {
        type,
        status: 'Unknown',
        lastHeartbeatTime: before?.lastHeartbeatTime ?? null,
        lastTransitionTime: rfc3339(now),
        reason,
        message,
      };
    });
    const others = old.filter((c) => !types.includes(c.type));
    await this.ctx.client.patch(
      { group: '', version: 'v1', resource: 'nodes', name, subresource: 'status' },
      { status: { conditions: [...conditions, ...others] } },
      'application/merge-patch+json',
    );
    this.events.record(
      { kind: 'Node', name, uid: node.metadata?.uid ?? '', apiVersion: 'v1' },
      'Normal',
      'NodeNotReady',
      `Node ${name} status is now: NodeNotReady`,
    );
    for (const obj of this.pods.cache.values()) {
      const pod = obj as Pod;
      if (pod.spec?.nodeName !== name) continue;
      await this.markPodNotReady(pod, now);
    }
  }

  private async markPodNotReady(pod: Pod, now: number): Promise<void> {
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready === undefined || ready.status === 'False') return;
    const m = pod.metadata ?? {};
    try {
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
          status: { conditions: [{ ...ready, status: 'False', lastTransitionTime: rfc3339(now) }] },
        },
        'application/strategic-merge-patch+json',
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    this.events.record(
      { kind: 'Pod', namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '', apiVersion: 'v1' },
      'Warning',
      'NodeNotReady',
      'Node is not ready',
    );
  }

  /** The taints the node's conditions and cordon call for, added or removed. */
  private async reconcileTaints(name: string): Promise<void> {
    const node = this.nodes.cache.get(name) as Node | undefined;
    if (node === undefined) return;
    const conditions = node.status?.conditions ?? [];
    const status = (type: string) => conditions.find((c) => c.type === type)?.status;
    const k = this.keys;
    const wanted: { key: string; effect: string }[] = [];
    const ready = status('Ready');
    if (ready === 'False') wanted.push({ key: k.notReady, effect: 'NoSchedule' });
    if (ready === 'Unknown') wanted.push({ key: k.unreachable, effect: 'NoSchedule' });
    // In a disruption of every zone nothing is tainted NoExecute (see disruption()).
    if (ready === 'False' && !this.disrupted) wanted.push({ key: k.notReady, effect: 'NoExecute' });
    if (ready === 'Unknown' && !this.disrupted) wanted.push({ key: k.unreachable, effect: 'NoExecute' });
    // A node that never reported is not ready (TaintNodesByCondition admission put this taint on it).
    if (ready === undefined) wanted.push({ key: k.notReady, effect: 'NoSchedule' });
    for (const [type, key] of Object.entries(k.pressure))
      if (status(type) === 'True') wanted.push({ key, effect: 'NoSchedule' });
    if (node.spec?.unschedulable === true) wanted.push({ key: k.unschedulable, effect: 'NoSchedule' });
    const managed = new Set([k.notReady, k.unreachable, k.unschedulable, ...Object.values(k.pressure)]);
    const current = node.spec?.taints ?? [];
    const kept = current.filter(
      (t) => !managed.has(t.key) || wanted.some((w) => w.key === t.key && w.effect === t.effect),
    );
    const added = wanted
      .filter((w) => !current.some((t) => t.key === w.key && t.effect === w.effect))
      .map((w): Taint => ({
        key: w.key,
        effect: w.effect,
        timeAdded: rfc3339(this.now()),
      }));
    if (added.length === 0 && kept.length === current.length) {
      this.scheduleEvictions(node);
      return;
    }
    const taints = [...kept, ...added];
    try {
      const updated = await this.ctx.client.patch<Node>(
        { group: '', version: 'v1', resource: 'nodes', name },
        {
          metadata: { resourceVersion: node.metadata?.resourceVersion },
          spec: { taints: taints.length > 0 ? taints : null },
        },
        'application/merge-patch+json',
      );
      this.scheduleEvictions(updated);
    } catch (e) {
      // Changed meanwhile: its next event brings it back.
      if (!isNotFound(e)) return;
    }
  }

  // Taint-based eviction

  private podSeen(pod: Pod): void {
    const node = this.nodes.cache.get(pod.spec?.nodeName ?? '') as Node | undefined;
    if (node === undefined) return;
    this.schedulePodEviction(pod, node);
  }

  private scheduleEvictions(node: Node): void {
    for (const obj of this.pods.cache.values()) {
      const pod = obj as Pod;
      if (pod.spec?.nodeName === node.metadata?.name) this.schedulePodEviction(pod, node);
    }
  }

  private cancelEviction(uid: string): void {
    this.evictions.get(uid)?.cancel();
    this.evictions.delete(uid);
  }

  private schedulePodEviction(pod: Pod, node: Node): void {
    const uid = pod.metadata?.uid ?? '';
    const noExecute = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    if (noExecute.length === 0 || (pod.metadata?.deletionTimestamp ?? null) !== null) {
      this.cancelEviction(uid);
      return;
    }
    const tolerations = pod.spec?.tolerations ?? [];
    let at = Infinity;
    for (const taint of noExecute) {
      const matching = tolerations.filter((t) => toleratesTaint(t, taint));
      if (matching.length === 0) {
        at = this.now();
        break;
      }
      const seconds = Math.min(
        ...matching.map((t) =>
          typeof t.tolerationSeconds === 'number' ? Math.max(0, t.tolerationSeconds) : Infinity,
        ),
      );
      if (seconds === Infinity) continue;
      const since = Date.parse(taint.timeAdded ?? '') || this.now();
      at = Math.min(at, since + seconds * 1000);
    }
    const existing = this.evictions.get(uid);
    if (at === Infinity) {
      this.cancelEviction(uid);
      return;
    }
    if (existing !== undefined && existing.at === at) return;
    existing?.cancel();
    const cancel = this.ctx.clock.setTimer(Math.max(0, at - this.now()), () => {
      this.evictions.delete(uid);
      this.enqueue(() => this.evict(pod));
    });
    this.evictions.set(uid, { at, cancel });
  }

  private async evict(pod: Pod): Promise<void> {
    const m = pod.metadata ?? {};
    const ref = {
      group: '',
      version: 'v1',
      resource: 'pods',
      namespace: m.namespace ?? '',
      name: m.name ?? '',
    };
    this.taintEvents.record(
      { kind: 'Pod', namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '', apiVersion: 'v1' },
      'Normal',
      'TaintManagerEviction',
      `Marking for deletion Pod ${m.namespace ?? ''}/${m.name ?? ''}`,
    );
    try {
      await this.ctx.client.patch(
        { ...ref, subresource: 'status' },
        {
          metadata: { uid: m.uid },
          status: {
            conditions: [
              {
                type: 'DisruptionTarget',
                status: 'True',
                lastProbeTime: null,
                lastTransitionTime: rfc3339(this.now()),
                reason: 'DeletionByTaintManager',
                message: 'Taint manager: deleting due to NoExecute taint',
              },
            ],
          },
        },
        'application/strategic-merge-patch+json',
      );
      await this.ctx.client.delete(ref, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions: { uid: m.uid },
      });
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}
