/**
 * A stand-in for nodes and their kubelets in tests of the controllers, the
 * way kwok fakes them: through the public API only, it binds each new pod
 * to a node (round robin over its nodes, or the pod's own `nodeName`) and
 * writes the status a kubelet would (Running, Ready, one ready status per
 * container, a pod IP), and finishes the graceful deletion of pods on its
 * nodes. Tests may hold pods back (not ready, not bound) and finish them
 * (Succeeded or Failed) to drive Jobs. The simulation proper lives in
 * `src/simulation`; this keeps the controllers' tests independent of it.
 */

import type { KubeObject } from '../../src/api/meta';
import { createClient, type ApiClient } from '../../src/client/client';
import { ApiError } from '../../src/client/errors';
import { initFor } from './host';

type Obj = Record<string, unknown>;

export interface KwokOptions {
  /** Node names to create (Ready, 8 CPUs, 32Gi); default one node `kwok-node-0`. */
  nodes?: string[];
  /** Whether new pods become Ready (default true); `holdBack` decides per pod. */
  ready?: boolean;
  /** Pods this returns true for are left alone: neither bound nor run. */
  holdBack?: (pod: KubeObject) => boolean;
  /** The client to act with (default: the administrator of a host started by `startTestHost`). */
  client?: ApiClient;
}

export interface Kwok {
  client: ApiClient;
  nodes: string[];
  /** Writes a pod's phase (`Succeeded`, `Failed`, `Running`) and readiness. */
  setPhase(namespace: string, name: string, phase: string, ready?: boolean): Promise<void>;
  /** Creates a Ready node with these labels and taints. */
  addNode(name: string, labels?: Record<string, string>, taints?: Obj[]): Promise<void>;
  stop(): void;
}

/** A client for a test host acting as the administrator. */
export function adminClient(baseUrl: string): ApiClient {
  return createClient({
    baseUrl,
    fetch: async (request) => {
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      return fetch(
        request.url,
        initFor(request.url, {
          method: request.method,
          headers: request.headers,
          ...(body !== undefined ? { body } : {}),
          signal: request.signal,
        }),
      );
    },
  });
}

const podsRef = { group: '', version: 'v1', resource: 'pods' };
const nodesRef = { group: '', version: 'v1', resource: 'nodes' };

function nodeObject(name: string, labels: Record<string, string>, taints: Obj[], now: string): KubeObject {
  const capacity = { cpu: '8', memory: '32Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: taints.length > 0 ? { taints } : {},
    status: {
      capacity,
      allocatable: capacity,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
    },
  };
}

/** The node a DaemonSet pins its pod to through a required node affinity on `metadata.name`. */
function pinnedNode(spec: Obj): string | undefined {
  const terms = (
    (spec.affinity as Obj | undefined)?.nodeAffinity as
      { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: Obj[] } } | undefined
  )?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  for (const term of terms ?? [])
    for (const f of (term.matchFields as Obj[] | undefined) ?? [])
      if (f.key === 'metadata.name' && Array.isArray(f.values)) return String(f.values[0]);
  return undefined;
}

let podIPs = 0;

function runningStatus(pod: KubeObject, phase: string, ready: boolean, now: string): Obj {
  const spec = (pod.spec ?? {}) as Obj;
  const containers = (spec.containers as Obj[] | undefined) ?? [];
  const finished = phase === 'Succeeded' || phase === 'Failed';
  const old = (pod.status ?? {}) as Obj;
  const ip = typeof old.podIP === 'string' ? old.podIP : `10.244.${(podIPs >> 8) & 255}.${podIPs++ & 255}`;
  const cond = (type: string, status: boolean): Obj => ({
    type,
    status: status ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: now,
  });
  return {
    phase,
    conditions: [
      cond('Initialized', true),
      cond('Ready', ready && !finished),
      cond('ContainersReady', ready && !finished),
      cond('PodScheduled', true),
    ],
    hostIP: '10.0.0.1',
    podIP: ip,
    podIPs: [{ ip }],
    startTime: typeof old.startTime === 'string' ? old.startTime : now,
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      imageID: '',
      ready: ready && !finished,
      restartCount: 0,
      started: !finished,
      state: finished
        ? {
            terminated: {
              exitCode: phase === 'Succeeded' ? 0 : 1,
              reason: phase === 'Succeeded' ? 'Completed' : 'Error',
              startedAt: now,
              finishedAt: now,
            },
          }
        : { running: { startedAt: now } },
    })),
  };
}

export async function startKwok(baseUrl: string, options: KwokOptions = {}): Promise<Kwok> {
  const client = options.client ?? adminClient(baseUrl);
  const nodes = [...(options.nodes ?? ['kwok-node-0'])];
  const stamp = () => `${new Date().toISOString().slice(0, 19)}Z`;
  const abort = new AbortController();
  let next = 0;
  const busy = new Set<string>();
  // The newest event's object of a pod that arrived while the pod was being handled: handled next.
  const latest = new Map<string, KubeObject>();

  const addNode = async (name: string, labels: Record<string, string> = {}, taints: Obj[] = []) => {
    try {
      await client.create(nodesRef, nodeObject(name, labels, taints, stamp()));
    } catch (e) {
      if (!(e instanceof ApiError && e.reason === 'AlreadyExists')) throw e;
    }
    // The TaintNodesByCondition admission plugin taints a new node not-ready; its node lifecycle controller
    // lifts the taint once the node reports Ready, which this does in its place.
    await client.patch({ ...nodesRef, name }, { spec: { taints } }, 'application/merge-patch+json');
    if (!nodes.includes(name)) nodes.push(name);
  };
  for (const n of nodes) await addNode(n);

  const writeStatus = async (pod: KubeObject, phase: string, ready: boolean): Promise<void> => {
    const m = pod.metadata ?? {};
    await client.update(
      { ...podsRef, namespace: m.namespace ?? '', name: m.name ?? '', subresource: 'status' },
      { ...pod, status: runningStatus(pod, phase, ready, stamp()) },
    );
  };

  const handle = async (pod: KubeObject): Promise<void> => {
    const m = pod.metadata ?? {};
    const key = `${m.namespace}/${m.name}`;
    if (options.holdBack?.(pod) === true) return;
    if (busy.has(key)) {
      latest.set(key, pod);
      return;
    }
    busy.add(key);
    try {
      const spec = (pod.spec ?? {}) as Obj;
      const status = (pod.status ?? {}) as Obj;
      const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
      if (m.deletionTimestamp !== undefined && m.deletionTimestamp !== null) {
        if (nodeName !== '')
          await client.delete(
            { ...podsRef, namespace: m.namespace ?? '', name: m.name ?? '' },
            { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 },
          );
        return;
      }
      if (nodeName === '') {
        const node = pinnedNode(spec) ?? nodes[next++ % nodes.length] ?? 'kwok-node-0';
        await client.create(
          { group: '', version: 'v1', resource: 'bindings', namespace: m.namespace ?? '' },
          {
            apiVersion: 'v1',
            kind: 'Binding',
            metadata: { name: m.name ?? '', namespace: m.namespace ?? '' },
            target: { apiVersion: 'v1', kind: 'Node', name: node },
          },
        );
        return;
      }
      if (status.phase === 'Pending' || status.phase === undefined) {
        const fresh = await client.get({ ...podsRef, namespace: m.namespace ?? '', name: m.name ?? '' });
        await writeStatus(fresh, 'Running', options.ready ?? true);
      }
    } catch {
      // A pod deleted or changed meanwhile: its next event brings it back.
    } finally {
      busy.delete(key);
      const again = latest.get(key);
      latest.delete(key);
      if (again !== undefined) void handle(again);
    }
  };

  void (async () => {
    let resourceVersion: string | undefined;
    while (!abort.signal.aborted) {
      try {
        if (resourceVersion === undefined) {
          const list = await client.list(podsRef);
          resourceVersion = list.metadata.resourceVersion;
          for (const p of list.items) void handle(p);
        }
        for await (const event of client.watch(
          podsRef,
          { resourceVersion, allowWatchBookmarks: true },
          abort.signal,
        )) {
          const obj = event.object as KubeObject;
          if (obj.metadata?.resourceVersion !== undefined) resourceVersion = obj.metadata.resourceVersion;
          if (event.type === 'ADDED' || event.type === 'MODIFIED') void handle(obj);
          if (event.type === 'ERROR') resourceVersion = undefined;
        }
      } catch {
        if (abort.signal.aborted) return;
        resourceVersion = undefined;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  })();

  return {
    client,
    nodes,
    addNode,
    async setPhase(namespace, name, phase, ready = phase === 'Running') {
      const pod = await client.get({ ...podsRef, namespace, name });
      await writeStatus(pod, phase, ready);
    },
    stop: () => abort.abort(),
  };
}
