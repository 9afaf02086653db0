/**
 * One pod on a simulated node, as the kubelet's pod worker handles it: the
 * pod and container stages (`stages/`) move its record, their actions
 * pull images, resolve volumes and environment, start and stop simulated
 * containers and run their probes, and the status generated from the
 * record (`pod-status.ts`) is written to `pods/<name>/status` whenever it
 * changed, as the node identity. A pod being deleted has its containers
 * stopped (the grace period on the server's clock) and is then deleted
 * with grace period 0.
 */

import type { KubeObject } from '../../api/meta';
import { usageAnnotation, type Pod, type PodStatus } from '../../api/pod';
import type { ApiClient } from '../../client/client';
import { isNotFound } from '../../client/api-errors';
import type { Clock } from '../../machinery/clock';
import { milliValue, parseQuantity } from '../../machinery/quantity';
import { Container, StartError } from '../containers/container';
import { fakeDigest, pullImage } from '../containers/images';
import type { CoreEventRecorder } from '../events';
import type { ContainerAction } from '../stages/container-stages';
import type { PodAction } from '../stages/pod-stages';
import { apply, type Stage } from '../stages/stage';
import type { StageRunner } from '../stages/runner';
import { containerView, podView, preciseDuration } from './container-view';
import { ConfigError, processSetup, type ProcessSetup } from './environment';
import type { ObjectSource } from './object-source';
import { generatePodStatus, withCachedStatus } from './pod-status';
import { enterState, recordCreated, recordPulled, recordRestart, recordStarted } from './transitions';
import { Prober, type ProbeTarget } from './prober';
import { newPodRecord, type ContainerRecord, type PodRecord } from './records';
import { MountError, resolveVolumes, type VolumeContent } from './volumes';

/** What a pod worker needs from its node agent. */
export interface PodWorkerHost {
  nodeName: string;
  hostIP(): string;
  clock: Clock;
  client: ApiClient;
  source: ObjectSource;
  events: CoreEventRecorder;
  containerStages: StageRunner<ContainerAction>;
  podStages: StageRunner<PodAction>;
  allocatable(): Record<string, string>;
  /** The images the node has, and adding one that was pulled. */
  images: {
    has(normalized: string): boolean;
    add(normalized: string, sizeBytes: number): void;
    all(): ReadonlySet<string>;
  };
  allocateIP(uid: string): string;
  /** Marks an IP a restored pod already has as taken. */
  claimIP(uid: string, ip: string): void;
  releaseIP(uid: string): void;
  random(): number;
  /** Tells the agent the pod is gone from the node. */
  removed(uid: string): void;
}

interface Extra {
  prepared?: ProcessSetup;
  preparing: boolean;
  prober?: Prober;
  crashStreak: number;
}

/** A failed status write is tried again after this, doubling up to the maximum. */
const statusRetryBaseMs = 200;
const statusRetryMaxMs = 10_000;
/** What a running container uses at rest: a millicore of CPU and this much memory. */
const idleMillicores = 1;
const baseMemoryMi = 4;

/** Whether a resourceVersion is later than another (the store's are integers; anything else is not compared). */
function newerVersion(version: string | undefined, than: string | undefined): boolean {
  if (version === undefined || than === undefined || !/^\d+$/.test(version) || !/^\d+$/.test(than))
    return false;
  return BigInt(version) > BigInt(than);
}

export class PodWorker {
  pod: Pod;
  readonly record: PodRecord;
  private volumes: Map<string, VolumeContent> | undefined;
  private readonly extra = new Map<ContainerRecord, Extra>();
  private busy = false;
  private resync = false;
  private flushScheduled = false;
  private flushing: Promise<void> | undefined;
  private flushWanted = false;
  private flushFailures = 0;
  private cancelRetry: (() => void) | undefined;
  private lastWritten = '';
  /** The pod's resourceVersion after the agent's last status write. */
  private writtenVersion: string | undefined;
  /** The status last made for the pod (the kubelet status manager's cache). */
  private statusCache: PodStatus | undefined;
  /** The usage last sampled (written as annotations with the status) and each container's CPU time then. */
  private usage: { cpu: string; memory: string } | undefined;
  private usageWritten = '';
  private usageSample: { at: number; cpuMs: Map<string, { process: unknown; ms: number }> } | undefined;
  private closed = false;

  constructor(
    pod: Pod,
    private readonly host: PodWorkerHost,
    record?: PodRecord,
  ) {
    this.pod = pod;
    this.record = record ?? newPodRecord(pod);
    for (const c of this.record.containers)
      this.extra.set(c, { preparing: false, crashStreak: c.restartCount });
  }

  get uid(): string {
    return this.record.uid;
  }

  /** Paused while the node agent is stopped. */
  get paused(): boolean {
    return this.closed;
  }

  /** The container a log or exec request addresses. */
  container(name: string): ContainerRecord | undefined {
    return this.record.containers.find((c) => c.name === name);
  }

  /** A newer version of the pod (its deletion, a changed label): the stages look at it again. */
  update(pod: Pod): void {
    this.pod = pod;
    // Someone else wrote the pod after the agent's last status write: the status manager compares and writes
    // its own status back where the API's differs (an older version, the watch lagging behind, needs nothing).
    // While a write is in flight the event may be that write's own (the browser's store tells its watchers
    // before the writer hears back): taking it for another writer's looped, one write bringing the next.
    if (this.flushing === undefined && newerVersion(pod.metadata?.resourceVersion, this.writtenVersion)) {
      this.lastWritten = '';
      this.scheduleFlush();
    }
    this.sync();
  }

  /** Looks at every stage again: due ones apply now, others wait for their time. */
  sync(): void {
    if (this.closed) return;
    if (this.busy) {
      this.resync = true;
      return;
    }
    this.host.podStages.sync(this.uid, podView(this.pod, this.record));
    for (const c of this.record.containers) {
      const ex = this.extraOf(c);
      this.host.containerStages.sync(`${this.uid}/${c.name}`, {
        ...containerView({
          pod: this.pod,
          record: this.record,
          container: c,
          nodeImages: this.host.images.all(),
          crashStreak: ex.crashStreak,
        }),
        prepared: ex.prepared !== undefined,
        preparing: ex.preparing,
      });
    }
    this.scheduleFlush();
  }

  /** The node agent stops running this pod (it is gone, or the agent stops): timers end; containers end with `kill`. */
  close(kill: boolean): void {
    this.closed = true;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.host.podStages.forget(this.uid);
    this.host.containerStages.forgetPrefix(`${this.uid}/`);
    for (const c of this.record.containers) {
      this.extra.get(c)?.prober?.stop();
      if (kill) c.process?.kill();
    }
    if (kill) this.host.events.forget(this.uid);
  }

  // Stages

  applyPodStage(stage: Stage<PodAction>): void {
    const view = podView(this.pod, this.record);
    const applied = apply(stage, view);
    if (applied.state !== undefined) this.record.state = applied.state;
    for (const e of applied.events) this.event(e.type, e.reason, e.message);
    switch (applied.action) {
      case 'accept':
        this.record.startTime = this.host.clock.now().getTime();
        break;
      case 'sandbox':
        this.runAsync(() => this.createSandbox());
        return;
      case 'deadline':
        this.record.failed = {
          reason: 'DeadlineExceeded',
          message: 'Pod was active on the node longer than the specified deadline',
        };
        break;
      case 'remove':
        this.runAsync(() => this.remove());
        return;
    }
    this.sync();
  }

  applyContainerStage(name: string, stage: Stage<ContainerAction>): void {
    const c = this.container(name);
    if (c === undefined) return;
    const ex = this.extraOf(c);
    const view = containerView({
      pod: this.pod,
      record: this.record,
      container: c,
      nodeImages: this.host.images.all(),
      crashStreak: ex.crashStreak,
    });
    const applied = apply(stage, view);
    for (const e of applied.events) this.event(e.type, e.reason, e.message, c);
    if (applied.state !== undefined) this.enter(c, applied.state, applied.waiting);
    switch (applied.action) {
      case 'pull':
        this.pull(c);
        break;
      case 'imagePulled':
        if (c.ref !== undefined) {
          const pulled = pullImage(c.spec.image ?? '');
          this.host.images.add(c.ref.normalized, pulled.ok ? pulled.image.sizeBytes : 0);
          recordPulled(c, c.ref);
        }
        break;
      case 'create':
        this.create(c);
        break;
      case 'start':
        this.start(c);
        break;
      case 'stop':
        this.stop(c);
        break;
      case 'restart':
        this.restart(c);
        break;
      case undefined:
        break;
    }
    this.sync();
  }

  /** State bookkeeping as a container enters a state. */
  /** State bookkeeping as a container enters a state (transitions.ts), and what it sets in motion. */
  private enter(
    c: ContainerRecord,
    state: string,
    waiting: { reason: string; message?: string } | undefined,
  ): void {
    const afresh = enterState(c, state, waiting, this.host.clock.now().getTime(), c.process?.exit);
    if (state === 'image-ready') this.ensurePrepared(c);
    if (state === 'exited') this.extraOf(c).prober?.stop();
    if (afresh) this.extraOf(c).crashStreak = 0;
  }

  // Actions

  private pull(c: ContainerRecord): void {
    const result = pullImage(c.spec.image ?? '');
    c.ref = result.ref;
    const cached = this.host.images.has(result.ref.normalized);
    // A cached image still costs a round trip to the registry under `Always`; a fresh one its download.
    const ms = cached
      ? 300 + this.host.random() * 500
      : result.ok
        ? 400 + (result.image.sizeBytes / 40_000_000) * 1000 + this.host.random() * 1500
        : 500 + this.host.random() * 700;
    c.pull = result.ok
      ? { ok: true, ms, duration: preciseDuration(ms) }
      : { ok: false, ms, duration: preciseDuration(ms), error: result.message };
  }

  private create(c: ContainerRecord): void {
    const setup = this.extraOf(c).prepared;
    const pulled = pullImage(c.spec.image ?? '');
    const program = setup?.argv[0] ?? '';
    const startable =
      setup !== undefined &&
      pulled.ok &&
      setup.argv.length > 0 &&
      Container.hasProgram(pulled.image, program);
    recordCreated(
      c,
      fakeDigest(`${this.uid}/${c.name}/${c.restartCount}/${this.host.clock.now().getTime()}`),
      startable ? undefined : new StartError(program).message,
    );
  }

  private start(c: ContainerRecord): void {
    const setup = this.extraOf(c).prepared;
    const pulled = pullImage(c.spec.image ?? '');
    if (setup === undefined || !pulled.ok || c.containerID === undefined) return;
    const now = this.host.clock.now().getTime();
    recordStarted(c, now);
    c.process = new Container({
      id: c.containerID,
      name: c.name,
      image: pulled.image,
      ref: pulled.ref,
      argv: setup.argv,
      env: setup.env,
      files: setup.files,
      dirs: setup.dirs,
      ...(setup.workingDir !== undefined ? { workingDir: setup.workingDir } : {}),
      hostname: this.hostname(),
      podIP: this.record.podIP ?? '',
      startedAt: now,
      clock: this.host.clock,
    });
    this.watchProcess(c);
  }

  /** Runs a container found running after the node agent started again: its program replays from `startedAt`. */
  resume(c: ContainerRecord, setup: ProcessSetup): void {
    const pulled = pullImage(c.spec.image ?? '');
    if (!pulled.ok || c.containerID === undefined || c.startedAt === undefined) return;
    this.extraOf(c).prepared = setup;
    c.process = new Container({
      id: c.containerID,
      name: c.name,
      image: pulled.image,
      ref: pulled.ref,
      argv: setup.argv,
      env: setup.env,
      files: setup.files,
      dirs: setup.dirs,
      ...(setup.workingDir !== undefined ? { workingDir: setup.workingDir } : {}),
      hostname: this.hostname(),
      podIP: this.record.podIP ?? '',
      startedAt: c.startedAt,
      clock: this.host.clock,
    });
    this.watchProcess(c);
  }

  private watchProcess(c: ContainerRecord): void {
    const process = c.process;
    if (process === undefined) return;
    const ex = this.extraOf(c);
    c.started = c.spec.startupProbe === undefined;
    c.ready = false;
    ex.prober?.stop();
    ex.prober = new Prober(c.spec, this.probeTarget(c), this.host.clock, {
      ready: (ready) => {
        if (c.process !== process || c.ready === ready) return;
        c.ready = ready;
        this.scheduleFlush();
      },
      started: () => {
        if (c.process !== process) return;
        c.started = true;
        this.scheduleFlush();
      },
      failed: (kind) => {
        if (c.process !== process || !process.running) return;
        this.event(
          'Normal',
          'Killing',
          `Container ${c.name} failed ${kind.toLowerCase()} probe, will be restarted`,
          c,
        );
        const grace =
          (kind === 'Liveness' ? c.spec.livenessProbe : c.spec.startupProbe)?.terminationGracePeriodSeconds ??
          this.pod.spec?.terminationGracePeriodSeconds ??
          30;
        void process.stop(grace * 1000);
      },
      event: (type, reason, message) => this.event(type, reason, message, c),
    });
    ex.prober.start();
    void process.exited.then(() => {
      if (c.process === process) this.sync();
    });
  }

  private probeTarget(c: ContainerRecord): ProbeTarget {
    const servers = () =>
      this.record.containers.map((x) => x.process).filter((p) => p !== undefined && p.running);
    return {
      exec: async (command, timeoutMs) =>
        c.process === undefined
          ? { ok: false, message: 'container not running' }
          : c.process.probeExec(command, timeoutMs),
      httpGet: (port, path) => {
        const server = servers().find((p) => p?.accepts(port));
        const page = server?.serve(path, 'kube-probe/1.27', this.gatewayIP());
        return page === undefined ? undefined : { status: page.status };
      },
      listening: (port) => servers().some((p) => p?.accepts(port)),
      podIP: () => this.record.podIP ?? '',
    };
  }

  private stop(c: ContainerRecord): void {
    const process = c.process;
    if (process === undefined) return;
    const m = this.pod.metadata;
    const grace = m?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30;
    void process.stop(grace * 1000).then(() => this.sync());
  }

  private restart(c: ContainerRecord): void {
    const ex = this.extraOf(c);
    recordRestart(c);
    if (c.process !== undefined) c.previous = c.process;
    delete c.process;
    ex.crashStreak++;
    delete ex.prepared;
  }

  private async createSandbox(): Promise<void> {
    try {
      this.volumes = await resolveVolumes(this.pod, this.host.source, this.host.allocatable());
    } catch (e) {
      if (!(e instanceof MountError)) throw e;
      this.record.mountError = e.message;
      this.event('Warning', 'FailedMount', e.message);
      // Mounts are retried; the kubelet's volume manager tries again within two minutes.
      const cancel = this.host.clock.setTimer(10_000, () => {
        delete this.record.mountError;
        this.sync();
      });
      void cancel;
      return;
    }
    delete this.record.mountError;
    this.record.podIP ??= this.host.allocateIP(this.uid);
    this.record.sandboxReady = true;
    await Promise.all(this.record.containers.map((c) => this.prepare(c)));
  }

  /** Resolves a container's environment, command and mounts (before it is created), or records its config error. */
  private async prepare(c: ContainerRecord): Promise<void> {
    const ex = this.extraOf(c);
    if (ex.prepared !== undefined || ex.preparing) return;
    const pulled = pullImage(c.spec.image ?? '');
    if (!pulled.ok) return;
    ex.preparing = true;
    try {
      const namespace = this.record.namespace;
      const enableLinks =
        (this.pod.spec as { enableServiceLinks?: boolean } | undefined)?.enableServiceLinks !== false;
      const services = await this.servicesFor(namespace, enableLinks);
      ex.prepared = await processSetup({
        pod: this.pod,
        container: c.spec,
        image: pulled.image,
        hostname: this.hostname(),
        volumes: this.volumes ?? new Map(),
        source: this.host.source,
        allocatable: this.host.allocatable(),
        services,
      });
      delete c.configError;
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      c.configError = e.message;
    } finally {
      ex.preparing = false;
    }
  }

  private async servicesFor(namespace: string, links: boolean): Promise<KubeObject[]> {
    const inDefault = await this.host.source.services('default');
    const master = inDefault.filter((s) => s.metadata?.name === 'kubernetes');
    if (!links) return master;
    if (namespace === 'default') return inDefault;
    return [...master, ...(await this.host.source.services(namespace))];
  }

  /** The pod is done on this node: its final status, then deleted with grace period 0 (the uid as precondition). */
  private async remove(): Promise<void> {
    await this.flush();
    try {
      await this.host.client.delete(
        {
          group: '',
          version: 'v1',
          resource: 'pods',
          namespace: this.record.namespace,
          name: this.record.name,
        },
        { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: this.uid } },
      );
    } catch (e) {
      if (!isNotFound(e) && !(e instanceof Error && /Precondition failed/.test(e.message))) throw e;
    }
    this.host.releaseIP(this.uid);
    this.host.removed(this.uid);
  }

  // Usage

  /**
   * Samples the simulated usage of the pod's running containers (the node agent does at each heartbeat, as
   * the kubelet's resource metrics): CPU is the simulated CPU time their processes used since the last
   * sample over the time passed — a loop without sleeps uses a whole core, capped at the container's CPU
   * limit; a millicore at rest — and memory a running container's baseline. Written as the pod's
   * `sandbox.orch.io/cpu-usage` and `memory-usage` annotations with its status when it changed, for the
   * HorizontalPodAutoscaler.
   */
  sampleUsage(): void {
    if (this.closed || this.record.state === 'new') return;
    const now = this.host.clock.now().getTime();
    const last = this.usageSample;
    const cpuMs = new Map<string, { process: unknown; ms: number }>();
    let millicores = 0;
    let running = 0;
    for (const c of this.record.containers) {
      const p = c.process;
      if (c.init || c.state !== 'running' || p === undefined || !p.running) continue;
      running++;
      cpuMs.set(c.name, { process: p, ms: p.cpuMs });
      const before = last?.cpuMs.get(c.name);
      // A restarted container's new process counts from zero.
      const used = before !== undefined && before.process === p ? p.cpuMs - before.ms : 0;
      const elapsed = last !== undefined ? now - last.at : 0;
      let m = Math.max(idleMillicores, elapsed > 0 ? Math.round((used / elapsed) * 1000) : 0);
      const limit = parseQuantity(c.spec.resources?.limits?.['cpu']);
      if (limit !== undefined) m = Math.min(m, Math.max(idleMillicores, Number(milliValue(limit))));
      millicores += m;
    }
    this.usageSample = { at: now, cpuMs };
    // Nothing runs (not started yet, completed): nothing to report, as a metrics server has no sample.
    if (running === 0) return;
    const usage = { cpu: `${millicores}m`, memory: `${running * baseMemoryMi}Mi` };
    if (this.usage?.cpu === usage.cpu && this.usage.memory === usage.memory) return;
    this.usage = usage;
    this.scheduleFlush();
  }

  // Status

  private scheduleFlush(): void {
    if (this.flushScheduled || this.closed) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      void this.flush().catch(() => undefined);
    });
  }

  /**
   * Writes the status when it differs from the last one written. One write
   * is in flight at a time: two concurrent patches of the same pod race in
   * the store's optimistic retry loop, and the older status could land last
   * while `lastWritten` already holds the newer one — the pod would then
   * stay at, say, ContainerCreating with nothing left to write it again.
   * A change made while a write is in flight is written after it.
   */
  flush(): Promise<void> {
    this.flushWanted = true;
    this.flushing ??= this.flushLoop();
    return this.flushing;
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.flushWanted) {
        this.flushWanted = false;
        await this.writeStatus();
      }
    } finally {
      // In the same step as the last check of `flushWanted`: a flush asked for after it starts a new loop
      // (a `.finally` callback would leave a moment where it joins a loop that has already ended).
      this.flushing = undefined;
    }
  }

  private async writeStatus(): Promise<void> {
    if (this.record.state === 'new' || this.closed) return;
    // The conditions' transition times and a terminal phase carry over from the status this worker last
    // made, as the kubelet's status manager keeps it, not from the pod its watch last delivered: that lags a
    // write behind, and a Ready condition judged against it flipped between two transition times on every
    // write (1,000 idle pods over 50 nodes wrote ~75 statuses a second, none of them a change).
    const status = generatePodStatus(
      withCachedStatus(this.pod, this.statusCache),
      this.record,
      this.host.clock.now().getTime(),
      this.host.hostIP(),
    );
    this.statusCache = status;
    const text = JSON.stringify(status);
    // The usage goes with a write only when it changed: a value a learner set by hand
    // (`kubectl annotate pod … sandbox.orch.io/cpu-usage=900m`) holds until the simulated one moves.
    const usageText = this.usage === undefined ? '' : JSON.stringify(this.usage);
    const usage = usageText !== this.usageWritten ? this.usage : undefined;
    if (text === this.lastWritten && usage === undefined) return;
    this.lastWritten = text;
    this.usageWritten = usageText;
    try {
      const updated = await this.host.client.patch<Pod>(
        {
          group: '',
          version: 'v1',
          resource: 'pods',
          namespace: this.record.namespace,
          name: this.record.name,
          subresource: 'status',
        },
        {
          metadata: {
            uid: this.uid,
            ...(usage !== undefined
              ? {
                  annotations: {
                    [usageAnnotation('cpu')]: usage.cpu,
                    [usageAnnotation('memory')]: usage.memory,
                  },
                }
              : {}),
          },
          status: asPatch(status),
        },
        'application/strategic-merge-patch+json',
      );
      if (updated.metadata?.uid === this.uid && !this.closed) {
        this.pod = updated;
        this.writtenVersion = updated.metadata?.resourceVersion;
      }
      this.flushFailures = 0;
    } catch (e) {
      // Gone: the informer will say so.
      if (isNotFound(e)) return;
      // Anything else (a busy store's Conflict, a timeout) is written again after a back-off, as the
      // kubelet's status manager does: a pod with no further change would otherwise keep a stale status.
      this.lastWritten = '';
      if (usage !== undefined) this.usageWritten = '';
      this.retryFlush();
    }
  }

  private retryFlush(): void {
    if (this.closed || this.cancelRetry !== undefined) return;
    const delay = Math.min(statusRetryBaseMs * 2 ** this.flushFailures, statusRetryMaxMs);
    this.flushFailures++;
    this.cancelRetry = this.host.clock.setTimer(delay, () => {
      this.cancelRetry = undefined;
      void this.flush().catch(() => undefined);
    });
  }

  // Helpers

  private runAsync(work: () => Promise<void>): void {
    this.busy = true;
    void work()
      .catch(() => undefined)
      .finally(() => {
        this.busy = false;
        this.resync = false;
        this.sync();
      });
  }

  private extraOf(c: ContainerRecord): Extra {
    let ex = this.extra.get(c);
    if (ex === undefined) {
      ex = { preparing: false, crashStreak: c.restartCount };
      this.extra.set(c, ex);
    }
    return ex;
  }

  /** After a restore: the volumes mounted again and the containers that were running resumed. */
  resumeRestored(): void {
    if (!this.record.sandboxReady) return;
    this.runAsync(async () => {
      try {
        this.volumes = await resolveVolumes(this.pod, this.host.source, this.host.allocatable());
      } catch (e) {
        if (!(e instanceof MountError)) throw e;
        this.volumes = new Map();
      }
      if (this.record.podIP !== undefined) this.host.claimIP(this.uid, this.record.podIP);
      for (const c of this.record.containers) {
        if (c.state !== 'running') continue;
        await this.prepare(c);
        const setup = this.extraOf(c).prepared;
        if (setup !== undefined) this.resume(c, setup);
      }
    });
  }

  /** The node agent stopped: timers and probes end, containers keep running. */
  pause(): void {
    this.closed = true;
    this.cancelRetry?.();
    this.cancelRetry = undefined;
    this.host.podStages.forget(this.uid);
    this.host.containerStages.forgetPrefix(`${this.uid}/`);
    for (const c of this.record.containers) this.extra.get(c)?.prober?.stop();
  }

  /** The node agent started again: probes of running containers start over, and the stages look again. */
  unpause(pod: Pod): void {
    this.closed = false;
    this.pod = pod;
    this.lastWritten = '';
    // A kubelet started again knows only what the API shows.
    this.statusCache = undefined;
    for (const c of this.record.containers) if (c.process?.running === true) this.watchProcess(c);
    this.sync();
  }

  /** Prepares a container again (its record came back to image-ready after a restart or a config error). */
  ensurePrepared(c: ContainerRecord): void {
    const ex = this.extraOf(c);
    if (ex.prepared === undefined && !ex.preparing && this.record.sandboxReady && c.state === 'image-ready')
      this.runAsync(() => this.prepare(c));
  }

  private hostname(): string {
    const spec = this.pod.spec;
    return spec?.hostname !== undefined && spec.hostname !== '' ? spec.hostname : this.record.name;
  }

  /** Probes come from the node: the first address of the pod's subnet, as a CNI bridge's gateway. */
  private gatewayIP(): string {
    const ip = this.record.podIP ?? '';
    return ip.replace(/\.\d+$/, '.1');
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string, c?: ContainerRecord): void {
    const m = this.pod.metadata ?? {};
    this.host.events.record(
      {
        kind: 'Pod',
        namespace: m.namespace ?? '',
        name: m.name ?? '',
        uid: m.uid ?? '',
        apiVersion: 'v1',
        ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
        ...(c !== undefined
          ? { fieldPath: `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}` }
          : {}),
      },
      type,
      reason,
      message,
    );
  }
}

/**
 * The status as a strategic merge patch: conditions merge by type, so a reason or message a condition no
 * longer has must be removed explicitly (null), as the kubelet's computed patch removes it.
 */
function asPatch(status: PodStatus): Record<string, unknown> {
  const owned = new Set(['Initialized', 'Ready', 'ContainersReady']);
  return {
    ...status,
    reason: status.reason ?? null,
    message: status.message ?? null,
    conditions: (status.conditions ?? []).map((c) =>
      owned.has(c.type) ? { ...c, reason: c.reason ?? null, message: c.message ?? null } : c,
    ),
  };
}
