/**
 * What a simulated node agent serves to the API server, as a kubelet's
 * port 10250 does: `/containerLogs/<ns>/<pod>/<container>` (the container's
 * current or previous log with the PodLogOptions; followed until the
 * container ends), `/pods`, `/healthz`, and exec sessions running the
 * tiny shell in a container. Which container's log a request gets, and the
 * refusals, follow the kubelet's `validateContainerLogStatus`.
 */

import type { ExecAnswer, ExecRequest, NodeAgent, StreamSession } from '../../api/node-agent';
import type { Status } from '../../api/meta';
import type { ContainerStatus } from '../../api/pod';
import { Container } from '../containers/container';
import type { LogBuffer, LogReadOptions } from '../containers/log-buffer';
import { pullImage } from '../containers/images';
import type { Output } from '../containers/shell/io';
import { noInput } from '../containers/shell/io';
import { streamInput, terminalInput } from '../containers/stream-input';
import type { Kubelet } from './kubelet';
import { containerStatus, initializing } from './pod-status';
import type { ContainerRecord } from './records';

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/** The log a request addresses, or the kubelet's refusal. */
function chooseLog(
  c: ContainerRecord,
  status: ContainerStatus,
  pod: string,
  previous: boolean,
): LogBuffer | string {
  const q = (s: string) => JSON.stringify(s);
  const byId = (id: string | undefined): LogBuffer | undefined => {
    const bare = (id ?? '').replace(/^[a-z]+:\/\//, '');
    for (const p of [c.process, c.previous]) if (p !== undefined && p.id === bare) return p.log;
    return undefined;
  };
  const state = status.state ?? {};
  const last = status.lastState?.terminated;
  const missing = `container ${q(c.name)} in pod ${q(pod)} is terminated`;
  if (previous) {
    if ((last?.containerID ?? '') === '')
      return `previous terminated container ${q(c.name)} in pod ${q(pod)} not found`;
    return byId(last?.containerID) ?? missing;
  }
  if (state.running !== undefined) return byId(status.containerID) ?? missing;
  if (state.terminated !== undefined) {
    if ((state.terminated.containerID ?? '') !== '') return byId(state.terminated.containerID) ?? missing;
    if ((last?.containerID ?? '') !== '') return byId(last?.containerID) ?? missing;
    return missing;
  }
  if (last !== undefined)
    return (last.containerID ?? '') === '' ? missing : (byId(last.containerID) ?? missing);
  if (state.waiting !== undefined) {
    const reason = state.waiting.reason ?? '';
    if (reason === 'ErrImagePull')
      return `container ${q(c.name)} in pod ${q(pod)} is waiting to start: image can't be pulled`;
    if (reason === 'ImagePullBackOff')
      return `container ${q(c.name)} in pod ${q(pod)} is waiting to start: trying and failing to pull image`;
    return `container ${q(c.name)} in pod ${q(pod)} is waiting to start: ${reason}`;
  }
  return `container ${q(c.name)} in pod ${q(pod)} is waiting to start - no logs yet`;
}

function readOptions(query: URLSearchParams, now: number): LogReadOptions {
  const int = (k: string) =>
    query.get(k) !== null && query.get(k) !== '' ? Number(query.get(k)) : undefined;
  const o: LogReadOptions = { timestamps: query.get('timestamps') === 'true' };
  const tail = int('tailLines');
  if (tail !== undefined) o.tailLines = tail;
  const limit = int('limitBytes');
  if (limit !== undefined) o.limitBytes = limit;
  const since = int('sinceSeconds');
  if (since !== undefined) o.sinceMs = now - since * 1000;
  const sinceTime = query.get('sinceTime');
  if (sinceTime !== null && sinceTime !== '' && sinceTime !== 'null') o.sinceMs = Date.parse(sinceTime);
  return o;
}

function logResponse(log: LogBuffer, options: LogReadOptions, follow: boolean): Response {
  const head = log.read(options);
  if (!follow || log.ended) return text(200, head);
  const encoder = new TextEncoder();
  let stop: () => void = () => undefined;
  let sent = head.length;
  const limit = options.limitBytes;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (head !== '') controller.enqueue(encoder.encode(head));
      stop = log.follow(
        {
          line: (l) => {
            if (limit !== undefined && sent >= limit) return;
            sent += l.length;
            controller.enqueue(encoder.encode(l));
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // Already closed by the client.
            }
          },
        },
        options,
      );
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

// The error stream's Statuses carry no HTTP code (0).
const success: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 0 };

function exitStatus(command: string[], code: number): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${code}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
    code: 0,
  };
}

function internalError(message: string): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${message}`,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  };
}

export function kubeletAgent(kubelet: Kubelet): NodeAgent {
  return {
    get reachable() {
      return kubelet.running;
    },
    async fetch(request) {
      const url = new URL(request.url);
      const parts = url.pathname
        .split('/')
        .filter((p) => p !== '')
        .map(decodeURIComponent);
      if (parts[0] === 'healthz' && parts.length === 1) return text(200, 'ok');
      if (parts[0] === 'pods' && parts.length === 1)
        return Response.json({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: kubelet.pods() });
      if (parts[0] !== 'containerLogs' || parts.length !== 4) return text(404, '404 page not found\n');
      const [, namespace = '', podName = '', containerName = ''] = parts;
      const worker = kubelet.worker(namespace, podName);
      if (worker === undefined)
        return text(400, `pod ${JSON.stringify(podName)} cannot be found - no logs available`);
      const c = worker.container(containerName);
      if (c === undefined)
        return text(
          400,
          `container ${JSON.stringify(containerName)} in pod ${JSON.stringify(podName)} is not available`,
        );
      const status = containerStatus(c, initializing(worker.record));
      const chosen = chooseLog(c, status, podName, url.searchParams.get('previous') === 'true');
      if (typeof chosen === 'string') return text(400, chosen);
      return logResponse(
        chosen,
        readOptions(url.searchParams, kubelet.now()),
        url.searchParams.get('follow') === 'true',
      );
    },

    async exec(request: ExecRequest): Promise<ExecAnswer> {
      const worker = kubelet.worker(request.namespace, request.pod);
      const c = worker?.container(request.container);
      const process = c?.process;
      if (
        worker === undefined ||
        c === undefined ||
        process === undefined ||
        !process.running ||
        (request.uid !== undefined && request.uid !== worker.uid)
      )
        return {
          refused: { code: 400, message: `container not found (${JSON.stringify(request.container)})` },
        };
      const session: StreamSession = {
        async run(io) {
          const pulled = pullImage(c.spec.image ?? '');
          const program = request.command[0] ?? '';
          if (!pulled.ok || !Container.hasProgram(pulled.image, program))
            return internalError(
              `error executing command in container: failed to exec in container: failed to start exec "${process.id}": OCI runtime exec failed: exec failed: unable to start container process: exec: "${program}": executable file not found in $PATH: unknown`,
            );
          const encoder = new TextEncoder();
          const out: Output = { write: (t) => io.stdout(encoder.encode(t)) };
          const err: Output = request.tty ? out : { write: (t) => io.stderr(encoder.encode(t)) };
          const stdin =
            request.stdin && io.stdin !== undefined
              ? request.tty
                ? terminalInput(io.stdin, out)
                : streamInput(io.stdin)
              : noInput;
          const code = await process.execute(
            request.command,
            { stdin, stdout: out, stderr: err },
            { tty: request.tty, ...(io.closed !== undefined ? { closed: io.closed } : {}) },
          );
          return code === 0 ? success : exitStatus(request.command, code);
        },
      };
      return { session };
    },
  };
}
