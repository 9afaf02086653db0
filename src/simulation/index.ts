/**
 * The cluster around the API server, simulated: the scheduler, one node
 * agent per simulated node (`node-1` … `node-N`), the node lifecycle
 * controller and the pod garbage collector — each a client of the API as
 * its own identity, each on the server's clock. The server composes it
 * (`server/index.ts`) with a client per identity; hosts reach the node
 * agents (logs, exec) through `nodeAgents`. The settings (node count,
 * capacity, labels, speed) may change while it runs: nodes are added, or
 * removed (their Node deleted, their pods collected), and reconfigured.
 */

import type { NodeAgent, NodeAgentDialer } from '../api/node-agent';
import type { ApiClient } from '../client/client';
import { isNotFound } from '../client/api-errors';
import type { Clock } from '../machinery/clock';
import type { NamingProfile } from '../machinery/naming';
import { NodeLifecycleController } from './controllers/node-lifecycle';
import { PodGC } from './controllers/pod-gc';
import { kubeletAgent } from './kubelet/agent-api';
import { Kubelet } from './kubelet/kubelet';
import { Scheduler } from './scheduler/scheduler';
import { speedFactor, type SimulationSettings } from './settings';
import { ensureDefaultStorageClass } from './storage-class';

export {
  defaultSimulationSettings,
  validateSimulationSettings,
  SettingsError,
  parseLabelList,
} from './settings';
export type { SimulationSettings, Speed } from './settings';

export interface SimulationClients {
  /** `system:kube-scheduler`. */
  scheduler: ApiClient;
  /** `system:node:<name>` in `system:nodes`. */
  node(name: string): ApiClient;
  /** The node lifecycle controller's and the pod GC's service accounts. */
  nodeController: ApiClient;
  podGC: ApiClient;
  /** The controller manager's own identity, for its controllers' informers. */
  controllerManager: ApiClient;
  /** Who removes a node taken out of the simulation (the cluster's operator). */
  operator: ApiClient;
}

export interface SimulationOptions {
  clients: SimulationClients;
  clock: Clock;
  profile: NamingProfile;
  kubeletVersion: string;
  /** The host the control plane runs on (the scheduler's Events name it). */
  hostname: string;
  settings: SimulationSettings;
  /** Whether a start makes the default StorageClass (see storage-class.ts); default true. */
  defaultStorageClass?: boolean;
  /** Whether the scheduler runs; default true (false: as a cluster with no kube-scheduler, decision 0131). */
  scheduler?: boolean;
  /** Nodes whose agent starts stopped (a stop that was saved). */
  stoppedNodes?: readonly string[];
  /** Told after each move of the server's clock. */
  onClockAdvance?(listener: () => void): () => void;
}

export interface SimulatedNode {
  name: string;
  /** The node agent runs (posts status, renews its lease, runs pods). */
  running: boolean;
}

export const nodeName = (index: number) => `node-${index}`;

export class Simulation {
  private readonly kubelets = new Map<string, Kubelet>();
  private readonly agents = new Map<string, NodeAgent>();
  private components:
    { scheduler: Scheduler | undefined; lifecycle: NodeLifecycleController; podGC: PodGC } | undefined;
  private settingsNow: SimulationSettings;
  private readonly stopped: Set<string>;
  private started = false;
  private storageClass: { stop(): void; idle(): Promise<void> } | undefined;

  constructor(private readonly o: SimulationOptions) {
    this.settingsNow = o.settings;
    this.stopped = new Set(o.stoppedNodes ?? []);
  }

  readonly name = 'simulation';

  /** The node agents, by the address a Node advertises (its name, as the Hostname address is). */
  readonly nodeAgents: NodeAgentDialer = ({ node }) => this.agents.get(node);

  /** Starts the components (again, after a stop: each start builds them anew, as a new leadership term does). */
  start(): void {
    if (this.started) return;
    this.started = true;
    const o = this.o;
    this.components = {
      scheduler:
        o.scheduler === false
          ? undefined
          : new Scheduler({
              client: o.clients.scheduler,
              clock: o.clock,
              profile: o.profile,
              hostname: o.hostname,
            }),
      lifecycle: new NodeLifecycleController({
        client: o.clients.nodeController,
        informerClient: o.clients.controllerManager,
        clock: o.clock,
        profile: o.profile,
        ...(o.onClockAdvance !== undefined ? { onClockAdvance: o.onClockAdvance } : {}),
      }),
      podGC: new PodGC({
        client: o.clients.podGC,
        informerClient: o.clients.controllerManager,
        clock: o.clock,
        profile: o.profile,
      }),
    };
    this.components.scheduler?.start();
    this.components.lifecycle.start();
    this.components.podGC.start();
    if (o.defaultStorageClass !== false)
      this.storageClass = ensureDefaultStorageClass(o.clients.operator, o.profile, o.clock);
    void this.resize().catch(() => undefined);
  }

  stop(): void {
    if (!this.started) return;
    this.started = false;
    this.components?.scheduler?.stop();
    this.components?.lifecycle.stop();
    this.components?.podGC.stop();
    this.components = undefined;
    this.storageClass?.stop();
    this.storageClass = undefined;
    for (const k of this.kubelets.values()) k.shutdown();
    this.kubelets.clear();
    this.agents.clear();
  }

  settings(): SimulationSettings {
    return this.settingsNow;
  }

  /** New settings (already validated): nodes added or removed, the others reconfigured. */
  async apply(settings: SimulationSettings): Promise<void> {
    const before = this.settingsNow;
    this.settingsNow = settings;
    if (!this.started) return;
    const reconfigure =
      JSON.stringify([before.capacity, before.labels]) !==
      JSON.stringify([settings.capacity, settings.labels]);
    await this.resize();
    if (reconfigure) for (const k of this.kubelets.values()) k.reconfigure(this.nodeConfig(k.config.index));
  }

  nodes(): SimulatedNode[] {
    return [...this.kubelets.values()].map((k) => ({ name: k.name, running: k.running }));
  }

  /** Stops or starts a node's agent; false when there is no such simulated node. */
  setRunning(name: string, running: boolean): boolean {
    const k = this.kubelets.get(name);
    if (k === undefined) return false;
    if (running) {
      this.stopped.delete(name);
      k.start();
    } else {
      this.stopped.add(name);
      k.stop();
    }
    return true;
  }

  /** The nodes whose agent is stopped (saved with the settings). */
  stoppedNodes(): string[] {
    return [...this.stopped].filter((n) => this.kubelets.has(n)).sort();
  }

  /** Resolves when the scheduler has nothing queued and the default StorageClass's attempt has settled (tests). */
  async idle(): Promise<void> {
    await Promise.all([this.components?.scheduler?.idle(), this.storageClass?.idle()]);
  }

  private speed(): number {
    return speedFactor(this.settingsNow.speed);
  }

  private nodeConfig(index: number) {
    return {
      name: nodeName(index),
      index,
      capacity: this.settingsNow.capacity,
      labels: this.settingsNow.labels,
    };
  }

  private async resize(): Promise<void> {
    const wanted = this.settingsNow.nodes;
    for (let i = 1; i <= wanted; i++) {
      const name = nodeName(i);
      if (this.kubelets.has(name)) continue;
      const kubelet = new Kubelet(
        {
          client: this.o.clients.node(name),
          clock: this.o.clock,
          profile: this.o.profile,
          speed: () => this.speed(),
          kubeletVersion: this.o.kubeletVersion,
          component: this.o.profile.name === 'kubernetes' ? 'kubelet' : 'node-agent',
        },
        this.nodeConfig(i),
      );
      this.kubelets.set(name, kubelet);
      this.agents.set(name, kubeletAgent(kubelet));
      if (!this.stopped.has(name)) kubelet.start();
    }
    for (const [name, kubelet] of [...this.kubelets]) {
      if (kubelet.config.index <= wanted) continue;
      kubelet.shutdown();
      this.kubelets.delete(name);
      this.agents.delete(name);
      this.stopped.delete(name);
      // The node leaves the cluster: its Node goes, and the pod GC collects its pods.
      try {
        await this.o.clients.operator.delete({ group: '', version: 'v1', resource: 'nodes', name });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }
}
