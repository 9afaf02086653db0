/**
 * A container's probes as the kubelet's prober workers run them, on the
 * server's clock: the startup probe until it succeeds (liveness and
 * readiness wait for it), then liveness and readiness every
 * `periodSeconds` after `initialDelaySeconds`, each result counted
 * against `successThreshold`/`failureThreshold`. A readiness result moves
 * the container's `ready`; a liveness (or startup) failure past its
 * threshold has the container killed and restarted. Each failed probe is
 * an `Unhealthy` Event with the kubelet's text. A probe reaches the pod's
 * IP: HTTP and TCP probes succeed when a container of the pod serves that
 * port (a web server image running its server), exec probes run the
 * command in the container.
 */

import type { Clock } from '../../machinery/clock';
import type { Container as ContainerSpec, Probe } from '../../api/pod';
import type { ProbeOutcome } from '../containers/container';

export type ProbeKind = 'Startup' | 'Liveness' | 'Readiness';

export interface ProbeTarget {
  /** Runs an exec probe's command in the container. */
  exec(command: string[], timeoutMs: number): Promise<ProbeOutcome>;
  /** An HTTP GET to the pod's IP and `port` (undefined: nothing listens there). */
  httpGet(port: number, path: string): { status: number } | undefined;
  /** Whether something in the pod listens on `port`. */
  listening(port: number): boolean;
  podIP(): string;
}

export interface ProberCallbacks {
  ready(ready: boolean): void;
  started(): void;
  /** Liveness or startup failed past its threshold: the container is to be killed and restarted. */
  failed(kind: 'Liveness' | 'Startup', message: string): void;
  event(type: 'Warning', reason: 'Unhealthy', message: string): void;
}

/** A probe's port: a number, or the name of one of the container's ports. */
export function resolvePort(port: number | string | undefined, spec: ContainerSpec): number | undefined {
  if (typeof port === 'number') return port;
  if (port === undefined) return undefined;
  if (/^\d+$/.test(port)) return Number(port);
  return spec.ports?.find((p) => p.name === port)?.containerPort;
}

/** The outcome of one probe against the target, with the kubelet's failure message. */
export async function runProbe(
  probe: Probe,
  spec: ContainerSpec,
  target: ProbeTarget,
): Promise<ProbeOutcome> {
  const timeoutMs = (probe.timeoutSeconds ?? 1) * 1000;
  if (probe.exec !== undefined) return target.exec(probe.exec.command ?? [], timeoutMs);
  const ip = target.podIP();
  if (probe.httpGet !== undefined) {
    const port = resolvePort(probe.httpGet.port, spec) ?? 0;
    const path = probe.httpGet.path ?? '/';
    const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
    const host = probe.httpGet.host ?? ip;
    const answer = target.httpGet(port, path);
    if (answer === undefined)
      return {
        ok: false,
        message: `Get "${scheme}://${host}:${port}${path}": dial tcp ${host}:${port}: connect: connection refused`,
      };
    if (answer.status >= 200 && answer.status < 400) return { ok: true, message: '' };
    return { ok: false, message: `HTTP probe failed with statuscode: ${answer.status}` };
  }
  if (probe.tcpSocket !== undefined) {
    const port = resolvePort(probe.tcpSocket.port, spec) ?? 0;
    const host = probe.tcpSocket.host ?? ip;
    return target.listening(port)
      ? { ok: true, message: '' }
      : { ok: false, message: `dial tcp ${host}:${port}: connect: connection refused` };
  }
  if (probe.grpc !== undefined) {
    const port = probe.grpc.port;
    return target.listening(port)
      ? { ok: true, message: '' }
      : {
          ok: false,
          message: `timeout: failed to connect service "${ip}:${port}" within ${probe.timeoutSeconds ?? 1}s: context deadline exceeded`,
        };
  }
  return { ok: true, message: '' };
}

interface Worker {
  kind: ProbeKind;
  probe: Probe;
  successes: number;
  failures: number;
  cancel: () => void;
}

export class Prober {
  private readonly workers: Worker[] = [];
  private stopped = false;
  private startedOk: boolean;

  constructor(
    private readonly spec: ContainerSpec,
    private readonly target: ProbeTarget,
    private readonly clock: Clock,
    private readonly callbacks: ProberCallbacks,
  ) {
    this.startedOk = spec.startupProbe === undefined;
  }

  /** Starts the probes of a container that just started. */
  start(): void {
    const s = this.spec;
    if (s.startupProbe !== undefined) this.schedule('Startup', s.startupProbe, true);
    else this.startOthers();
    if (s.readinessProbe === undefined && this.startedOk) this.callbacks.ready(true);
  }

  stop(): void {
    this.stopped = true;
    for (const w of this.workers) w.cancel();
    this.workers.length = 0;
  }

  private startOthers(): void {
    const s = this.spec;
    if (s.livenessProbe !== undefined) this.schedule('Liveness', s.livenessProbe, true);
    if (s.readinessProbe !== undefined) this.schedule('Readiness', s.readinessProbe, true);
  }

  private schedule(kind: ProbeKind, probe: Probe, first: boolean): void {
    if (this.stopped) return;
    const wait = first ? (probe.initialDelaySeconds ?? 0) * 1000 : (probe.periodSeconds ?? 10) * 1000;
    let worker = this.workers.find((w) => w.kind === kind);
    if (worker === undefined) {
      worker = { kind, probe, successes: 0, failures: 0, cancel: () => undefined };
      this.workers.push(worker);
    }
    const w = worker;
    w.cancel = this.clock.setTimer(wait, () => void this.run(w));
  }

  private async run(w: Worker): Promise<void> {
    if (this.stopped) return;
    const outcome = await runProbe(w.probe, this.spec, this.target);
    if (this.stopped) return;
    const successThreshold = w.kind === 'Readiness' ? (w.probe.successThreshold ?? 1) : 1;
    const failureThreshold = w.probe.failureThreshold ?? 3;
    if (outcome.ok) {
      w.failures = 0;
      w.successes++;
      if (w.successes >= successThreshold) {
        if (w.kind === 'Readiness') this.callbacks.ready(true);
        if (w.kind === 'Startup') {
          this.startedOk = true;
          this.callbacks.started();
          this.workers.splice(this.workers.indexOf(w), 1);
          this.startOthers();
          if (this.spec.readinessProbe === undefined) this.callbacks.ready(true);
          return;
        }
      }
    } else {
      w.successes = 0;
      w.failures++;
      this.callbacks.event(
        'Warning',
        'Unhealthy',
        `${w.kind} probe failed: ${outcome.message.replace(/\n$/, '')}`,
      );
      if (w.failures >= failureThreshold) {
        if (w.kind === 'Readiness') this.callbacks.ready(false);
        else {
          this.callbacks.failed(w.kind, outcome.message);
          return;
        }
      }
    }
    this.schedule(w.kind, w.probe, false);
  }
}
