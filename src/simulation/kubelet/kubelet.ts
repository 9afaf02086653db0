/**
 * A simulated node agent: one per node, acting as `system:node:<name>` (so
 * the Node authorizer and NodeRestriction judge it as they judge a
 * kubelet). Its node stages register the Node, report it Ready and renew
 * its Lease every ten seconds of the server's clock; it watches the pods
 * bound to its node (`spec.nodeName`) and runs each through a pod worker;
 * it keeps the images it pulled and the pod IPs of its CIDR; and it serves
 * the agent's endpoints (`agent-api.ts`). Stopped, it posts nothing (the
 * node goes NotReady once its lease runs out) while its containers keep
 * running; started again, it picks its pods up where they are.
 */

import type { Node } from '../../api/node';
import type { Pod } from '../../api/pod';
import type { ApiClient } from '../../client/client';
import { isAlreadyExists, isNotFound } from '../../client/api-errors';
import { Informer } from '../../client/informer';
import type { Clock } from '../../machinery/clock';
import type { NamingProfile } from '../../machinery/naming';
import { preloadedImages } from '../containers/images';
import { CoreEventRecorder } from '../events';
import { containerStages, type ContainerAction } from '../stages/container-stages';
import { nodeStages, type NodeAction } from '../stages/node-stages';
import { podStages, type PodAction } from '../stages/pod-stages';
import { StageRunner } from '../stages/runner';
import { apply, type Stage } from '../stages/stage';
import { apiObjectSource } from './object-source';
import {
  conditionsDiffer,
  leaseObject,
  microTime,
  nodeIP,
  nodeObject,
  nodeStatus,
  podCIDR,
  type NodeConfig,
} from './node-object';
import { PodWorker, type PodWorkerHost } from './pod-worker';
import { restoreRecord, wasAccepted } from './restore';

export interface KubeletContext {
  /** A client acting as `system:node:<name>` in `system:nodes`. */
  client: ApiClient;
  clock: Clock;
  profile: NamingProfile;
  /** The simulation's speed for simulated durations. */
  speed(): number;
  kubeletVersion: string;
  /** The agent's name in its Events' source (`kubelet`; the orch profile's `node-agent`). */
  component: string;
}

/** The node posts its status at least this often even when nothing changed (the kubelet's report frequency). */
const statusReportMs = 5 * 60_000;

export class Kubelet {
  readonly events: CoreEventRecorder;
  private readonly workers = new Map<string, PodWorker>();
  private readonly byName = new Map<string, string>();
  private readonly images = new Map<string, number>(preloadedImages.map((i) => [i, 320_368]));
  private readonly usedIPs = new Map<string, string>();
  private readonly containerRunner: StageRunner<ContainerAction>;
  private readonly podRunner: StageRunner<PodAction>;
  private readonly nodeRunner: StageRunner<NodeAction>;
  private informer: Informer | undefined;
  /** The agent's own Node, watched: a deleted Node (a reset, `kubectl delete node`) is registered again. */
  private nodeInformer: Informer | undefined;
  private started = false;
  private registered = false;
  private ready = false;
  private nodeUid: string | undefined;
  private lastHeartbeat = 0;
  private lastStatusPost = 0;
  private lastStatus = '';
  private imagesChanged = false;
  private readonly host: PodWorkerHost;

  constructor(
    private readonly ctx: KubeletContext,
    private configNow: NodeConfig,
  ) {
    const config = configNow;
    this.events = new CoreEventRecorder(ctx.client, ctx.clock, {
      component: ctx.component,
      host: config.name,
    });
    const runnerOptions = { clock: ctx.clock, speed: () => ctx.speed() };
    this.containerRunner = new StageRunner(containerStages, runnerOptions, (key, stage) => {
      const slash = key.indexOf('/');
      this.workers.get(key.slice(0, slash))?.applyContainerStage(key.slice(slash + 1), stage);
    });
    this.podRunner = new StageRunner(podStages, runnerOptions, (uid, stage) =>
      this.workers.get(uid)?.applyPodStage(stage),
    );
    this.nodeRunner = new StageRunner(nodeStages, runnerOptions, (_key, stage) => this.applyNodeStage(stage));
    const images = this.images;
    const markImagesChanged = () => (this.imagesChanged = true);
    this.host = {
      nodeName: config.name,
      hostIP: () => nodeIP(config.index),
      clock: ctx.clock,
      client: ctx.client,
      source: apiObjectSource(ctx.client, ctx.profile.suffixed('authentication')),
      events: this.events,
      containerStages: this.containerRunner,
      podStages: this.podRunner,
      allocatable: () => ({ ...this.configNow.capacity }),
      images: {
        has: (n) => images.has(n),
        add: (n, size) => {
          if (!images.has(n)) markImagesChanged();
          images.set(n, size);
        },
        all: () => new Set(images.keys()),
      },
      allocateIP: (uid) => this.allocateIP(uid),
      claimIP: (uid, ip) => this.usedIPs.set(uid, ip),
      releaseIP: (uid) => this.usedIPs.delete(uid),
      random: Math.random,
      removed: (uid) => this.forget(uid),
    };
  }

  get name(): string {
    return this.configNow.name;
  }

  get config(): NodeConfig {
    return this.configNow;
  }

  /** New capacity or labels: the Node's labels are updated and its status posted again. */
  reconfigure(config: NodeConfig): void {
    const before = this.configNow;
    this.configNow = config;
    if (!this.started || !this.registered) return;
    const labels: Record<string, string | null> = { ...config.labels };
    for (const k of Object.keys(before.labels)) if (!(k in config.labels)) labels[k] = null;
    void this.ctx.client
      .patch(
        { group: '', version: 'v1', resource: 'nodes', name: config.name },
        { metadata: { labels } },
        'application/merge-patch+json',
      )
      .then(() => this.postStatus(true))
      .catch(() => undefined);
  }

  /** The server's time, in milliseconds. */
  now(): number {
    return this.ctx.clock.now().getTime();
  }

  /** Whether the agent runs (its node's API reaches it). */
  get running(): boolean {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.registered = false;
    this.ready = false;
    this.syncNode();
    this.informer = new Informer(
      this.ctx.client,
      { group: '', version: 'v1', resource: 'pods' },
      {
        add: (obj) => this.podChanged(obj as Pod),
        update: (_old, obj) => this.podChanged(obj as Pod),
        delete: (obj) => this.podDeleted(obj as Pod),
      },
      { query: { fieldSelector: `spec.nodeName=${this.config.name}` } },
    );
    this.informer.start();
    this.nodeInformer = new Informer(
      this.ctx.client,
      { group: '', version: 'v1', resource: 'nodes' },
      {
        delete: () => {
          if (!this.registered) return;
          this.registered = false;
          this.ready = false;
          this.nodeRunner.reset();
          this.syncNode();
        },
      },
      { query: { fieldSelector: `metadata.name=${this.configNow.name}` } },
    );
    this.nodeInformer.start();
  }

  /** Stops posting status and renewing the lease; the containers keep running. */
  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.informer?.stop();
    this.informer = undefined;
    this.nodeInformer?.stop();
    this.nodeInformer = undefined;
    this.nodeRunner.reset();
    this.host.source.close();
    for (const w of this.workers.values()) w.pause();
  }

  /** Everything ends: the containers too (the node is removed from the simulation, or the server closes). */
  shutdown(): void {
    this.stop();
    for (const w of this.workers.values()) w.close(true);
    this.workers.clear();
    this.byName.clear();
    this.containerRunner.stop();
    this.podRunner.stop();
    this.nodeRunner.stop();
  }

  /** The worker of a pod on this node, by namespace and name. */
  worker(namespace: string, name: string): PodWorker | undefined {
    const uid = this.byName.get(`${namespace}/${name}`);
    return uid === undefined ? undefined : this.workers.get(uid);
  }

  /** Pods the agent runs, for its `/pods` endpoint. */
  pods(): Pod[] {
    return [...this.workers.values()].map((w) => w.pod);
  }

  // Pods

  private podChanged(pod: Pod): void {
    if (!this.started) return;
    const uid = pod.metadata?.uid ?? '';
    const existing = this.workers.get(uid);
    if (existing !== undefined) {
      if (existing.paused) existing.unpause(pod);
      else existing.update(pod);
      return;
    }
    // A terminal pod the agent never ran (or ran before it started again) needs nothing.
    const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
    if (terminal && pod.metadata?.deletionTimestamp === undefined) return;
    const restored = wasAccepted(pod) ? restoreRecord(pod, this.ctx.clock.now().getTime()) : undefined;
    const worker = new PodWorker(pod, this.host, restored);
    this.workers.set(uid, worker);
    this.byName.set(`${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`, uid);
    if (restored !== undefined) worker.resumeRestored();
    worker.sync();
  }

  private podDeleted(pod: Pod): void {
    this.forget(pod.metadata?.uid ?? '');
  }

  private forget(uid: string): void {
    const worker = this.workers.get(uid);
    if (worker === undefined) return;
    worker.close(true);
    this.workers.delete(uid);
    const key = `${worker.record.namespace}/${worker.record.name}`;
    if (this.byName.get(key) === uid) this.byName.delete(key);
    this.usedIPs.delete(uid);
  }

  private allocateIP(uid: string): string {
    const { prefix } = podCIDR(this.config.index);
    const taken = new Set(this.usedIPs.values());
    for (let i = 2; i < 255; i++) {
      const ip = `${prefix}.${i}`;
      if (!taken.has(ip)) {
        this.usedIPs.set(uid, ip);
        return ip;
      }
    }
    // A full /24 (more than 252 pods on a node): the scheduler's pod limit keeps this from happening.
    return `${prefix}.254`;
  }

  // Node

  private nodeView() {
    return {
      name: this.config.name,
      registered: this.registered,
      ready: this.ready,
      lastHeartbeat: this.lastHeartbeat,
    };
  }

  private syncNode(): void {
    if (!this.started) return;
    this.nodeRunner.sync('node', this.nodeView());
  }

  private applyNodeStage(stage: Stage<NodeAction>): void {
    const applied = apply(stage, this.nodeView());
    for (const e of applied.events) this.nodeEvent(e.type, e.reason, e.message);
    const run = async (): Promise<void> => {
      switch (applied.action) {
        case 'register':
          await this.register();
          this.registered = true;
          break;
        case 'ready':
          this.ready = true;
          await this.postStatus(true);
          await this.renewLease();
          break;
        case 'heartbeat':
          for (const w of this.workers.values()) w.sampleUsage();
          await this.renewLease();
          await this.postStatus(false);
          break;
      }
    };
    void run()
      .catch(() => {
        // Tried again at the next heartbeat (a registration that failed is tried again at once).
        if (applied.action === 'register') this.registered = false;
      })
      .finally(() => {
        if (applied.action === 'heartbeat' || applied.action === 'ready')
          this.lastHeartbeat = this.ctx.clock.now().getTime();
        this.syncNode();
      });
  }

  private async register(): Promise<void> {
    const nodes = { group: '', version: 'v1', resource: 'nodes' };
    let node: Node;
    try {
      node = await this.ctx.client.create<Node>(nodes, nodeObject(this.ctx.profile, this.config));
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
      node = await this.ctx.client.get<Node>({ ...nodes, name: this.config.name });
    }
    this.nodeUid = node.metadata?.uid;
    this.lastStatus = '';
    await this.postStatus(true, node);
  }

  /** Posts the node's status when it changed, or when the report is due. */
  private async postStatus(force: boolean, current?: Node): Promise<void> {
    const now = this.ctx.clock.now().getTime();
    let node = current ?? (this.nodeInformer?.cache.get(this.configNow.name) as Node | undefined);
    const due = force || this.imagesChanged || now - this.lastStatusPost >= statusReportMs;
    // Conditions the node controller marked Unknown (a Lease not renewed) are put right at once.
    if (!due && (node === undefined || !conditionsDiffer(this.ready, node.status?.conditions))) return;
    const ref = { group: '', version: 'v1', resource: 'nodes', name: this.config.name };
    try {
      node ??= await this.ctx.client.get<Node>(ref);
    } catch (e) {
      // The Node was deleted: the agent registers it again, as a kubelet does.
      if (isNotFound(e)) {
        this.registered = false;
        this.ready = false;
        return;
      }
      throw e;
    }
    this.imagesChanged = false;
    const status = nodeStatus(this.config, {
      ready: this.ready,
      now,
      old: node.status?.conditions,
      images: this.images,
      kubeletVersion: this.ctx.kubeletVersion,
    });
    this.lastStatusPost = now;
    await this.ctx.client.patch(
      { ...ref, subresource: 'status' },
      { status },
      'application/strategic-merge-patch+json',
    );
  }

  private async renewLease(): Promise<void> {
    const ref = {
      group: this.ctx.profile.suffixed('coordination'),
      version: 'v1',
      resource: 'leases',
      namespace: this.ctx.profile.nodeLeaseNamespace,
    };
    const now = this.ctx.clock.now().getTime();
    try {
      await this.ctx.client.patch(
        { ...ref, name: this.config.name },
        { spec: { holderIdentity: this.config.name, leaseDurationSeconds: 40, renewTime: microTime(now) } },
        'application/merge-patch+json',
      );
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.ctx.client.create(ref, leaseObject(this.ctx.profile, this.config.name, this.nodeUid, now));
    }
  }

  private nodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
    // The kubelet names its Node by name, and uses the name as the uid too.
    this.events.record(
      { kind: 'Node', name: this.config.name, uid: this.config.name },
      type,
      reason,
      message,
    );
  }
}
