/**
 * The scheduler's view of each node: the Node, the pods assigned to it
 * that still hold resources (not Succeeded or Failed), the sum of their
 * requests (CPU in millicores, memory and storage in bytes, pod count,
 * extended resources) and the host ports they use — kept current from the
 * informers' events, plus the pods the scheduler has just bound ("assumed")
 * before the pod informer shows them bound, so two pods in a row do not
 * both take the same free room.
 */

import type { Node } from '../../api/node';
import type { Container, Pod } from '../../api/pod';
import { parseQuantity } from '../../machinery/quantity';

export type Resources = Map<string, number>;

/** A quantity in the unit the scheduler compares: millicores for CPU, whole units otherwise. */
function amount(resource: string, raw: unknown): number {
  const q = parseQuantity(raw);
  if (q === undefined) return 0;
  return resource === 'cpu' ? Number(q.nanos / 1_000_000n) : Number(q.nanos / 1_000_000_000n);
}

function addRequests(into: Resources, container: Container | undefined): void {
  for (const [k, v] of Object.entries(container?.resources?.requests ?? {}))
    into.set(k, (into.get(k) ?? 0) + amount(k, v));
}

/** A pod's effective requests: the sum of its containers', at least the largest init container's, plus overhead. */
export function podRequests(pod: Pod): Resources {
  const total: Resources = new Map();
  for (const c of pod.spec?.containers ?? []) addRequests(total, c);
  for (const c of pod.spec?.initContainers ?? []) {
    const one: Resources = new Map();
    addRequests(one, c);
    for (const [k, v] of one) if (v > (total.get(k) ?? 0)) total.set(k, v);
  }
  for (const [k, v] of Object.entries(pod.spec?.overhead ?? {}))
    total.set(k, (total.get(k) ?? 0) + amount(k, v));
  return total;
}

export function nodeAllocatable(node: Node): Resources {
  const out: Resources = new Map();
  for (const [k, v] of Object.entries(node.status?.allocatable ?? node.status?.capacity ?? {}))
    out.set(k, amount(k, v));
  return out;
}

export function hostPorts(pod: Pod): string[] {
  const out: string[] = [];
  for (const c of pod.spec?.containers ?? [])
    for (const p of c.ports ?? []) {
      const hostPort = (p as { hostPort?: number }).hostPort;
      if (hostPort !== undefined && hostPort > 0) out.push(`${p.protocol ?? 'TCP'}/${hostPort}`);
    }
  return out;
}

const holdsResources = (pod: Pod) => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';

export class NodeInfo {
  readonly pods = new Map<string, Pod>();
  readonly requested: Resources = new Map();
  readonly ports = new Map<string, number>();

  constructor(public node: Node | undefined) {}

  add(key: string, pod: Pod): void {
    this.remove(key);
    if (!holdsResources(pod)) return;
    this.pods.set(key, pod);
    for (const [k, v] of podRequests(pod)) this.requested.set(k, (this.requested.get(k) ?? 0) + v);
    for (const p of hostPorts(pod)) this.ports.set(p, (this.ports.get(p) ?? 0) + 1);
  }

  remove(key: string): void {
    const pod = this.pods.get(key);
    if (pod === undefined) return;
    this.pods.delete(key);
    for (const [k, v] of podRequests(pod)) this.requested.set(k, (this.requested.get(k) ?? 0) - v);
    for (const p of hostPorts(pod)) {
      const n = (this.ports.get(p) ?? 0) - 1;
      if (n <= 0) this.ports.delete(p);
      else this.ports.set(p, n);
    }
  }
}

/** Every node's info, by node name; a pod assigned to a node not (yet) known keeps a node-less entry. */
export class ClusterState {
  readonly nodes = new Map<string, NodeInfo>();
  private readonly podNode = new Map<string, string>();

  private info(name: string): NodeInfo {
    let i = this.nodes.get(name);
    if (i === undefined) {
      i = new NodeInfo(undefined);
      this.nodes.set(name, i);
    }
    return i;
  }

  setNode(node: Node): void {
    this.info(node.metadata?.name ?? '').node = node;
  }

  deleteNode(name: string): void {
    const i = this.nodes.get(name);
    if (i === undefined) return;
    i.node = undefined;
    if (i.pods.size === 0) this.nodes.delete(name);
  }

  /** A pod's latest version: counted on its node while assigned and holding resources. */
  setPod(key: string, pod: Pod): void {
    const node = pod.spec?.nodeName ?? '';
    const before = this.podNode.get(key);
    if (before !== undefined && before !== node) this.nodes.get(before)?.remove(key);
    if (node === '') {
      this.podNode.delete(key);
      return;
    }
    this.podNode.set(key, node);
    this.info(node).add(key, pod);
  }

  deletePod(key: string): void {
    const node = this.podNode.get(key);
    if (node === undefined) return;
    this.podNode.delete(key);
    this.nodes.get(node)?.remove(key);
  }

  /** The nodes that exist (have a Node object), by name. */
  readyNodes(): NodeInfo[] {
    return [...this.nodes.values()].filter((i) => i.node !== undefined);
  }
}
