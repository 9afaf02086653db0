/**
 * The scheduler's filter plugins in the default profile's order, each
 * answering for one node whether the pod fits and, if not, the reason the
 * real plugin gives (the texts `FailedScheduling` messages are made of),
 * and whether preemption could help (resources, ports, anti-affinity) or
 * not (taints, selectors, an unschedulable node):
 * NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit and InterPodAffinity (required terms, any topology key;
 * the pod's affinity, then its anti-affinity, then existing pods'
 * anti-affinity, as the plugin checks them).
 */

import type { Node } from '../../api/node';
import type { Pod, PodAffinityTerm } from '../../api/pod';
import type { NamingProfile } from '../../machinery/naming';
import { matchesLabelSelector } from '../../machinery/scheduling/label-selector';
import { matchesNodeSelectorAndAffinity } from '../../machinery/scheduling/node-affinity';
import { firstUntolerated, taintText, toleratesTaint } from '../../machinery/scheduling/taints';
import { hostPorts, nodeAllocatable, podRequests, type ClusterState, type NodeInfo } from './node-info';

export interface FilterFailure {
  reasons: string[];
  /** Preemption cannot make the pod fit here (UnschedulableAndUnresolvable). */
  unresolvable: boolean;
}

export interface FilterContext {
  pod: Pod;
  state: ClusterState;
  profile: NamingProfile;
  /** The labels of a namespace, for affinity terms with a namespaceSelector. */
  namespaceLabels(name: string): Record<string, string> | undefined;
}

const unresolvable = (reason: string): FilterFailure => ({ reasons: [reason], unresolvable: true });
const unschedulable = (reasons: string[]): FilterFailure => ({ reasons, unresolvable: false });

function nodeUnschedulable(ctx: FilterContext, node: Node): FilterFailure | undefined {
  if (node.spec?.unschedulable !== true) return undefined;
  const taint = { key: ctx.profile.subPrefixed('node', 'unschedulable'), effect: 'NoSchedule' };
  if ((ctx.pod.spec?.tolerations ?? []).some((t) => toleratesTaint(t, taint))) return undefined;
  return unresolvable('node(s) were unschedulable');
}

function nodeName(ctx: FilterContext, node: Node): FilterFailure | undefined {
  const wanted = ctx.pod.spec?.nodeName ?? '';
  return wanted !== '' && wanted !== node.metadata?.name
    ? unresolvable("node(s) didn't match the requested node name")
    : undefined;
}

function taintToleration(ctx: FilterContext, node: Node): FilterFailure | undefined {
  const taint = firstUntolerated(node.spec?.taints, ctx.pod.spec?.tolerations, ['NoSchedule', 'NoExecute']);
  return taint === undefined ? undefined : unresolvable(`node(s) had untolerated taint ${taintText(taint)}`);
}

function nodeAffinity(ctx: FilterContext, node: Node): FilterFailure | undefined {
  return matchesNodeSelectorAndAffinity(ctx.pod, node)
    ? undefined
    : unresolvable("node(s) didn't match Pod's node affinity/selector");
}

function nodePorts(ctx: FilterContext, _node: Node, info: NodeInfo): FilterFailure | undefined {
  const taken = hostPorts(ctx.pod).some((p) => info.ports.has(p));
  return taken ? unschedulable(["node(s) didn't have free ports for the requested pod ports"]) : undefined;
}

function resourcesFit(ctx: FilterContext, node: Node, info: NodeInfo): FilterFailure | undefined {
  const allocatable = nodeAllocatable(node);
  const reasons: string[] = [];
  if (info.pods.size + 1 > (allocatable.get('pods') ?? 110)) reasons.push('Too many pods');
  for (const [resource, wanted] of podRequests(ctx.pod)) {
    if (wanted === 0) continue;
    const free = (allocatable.get(resource) ?? 0) - (info.requested.get(resource) ?? 0);
    if (wanted > free) reasons.push(`Insufficient ${resource}`);
  }
  return reasons.length > 0 ? unschedulable(reasons) : undefined;
}

/** The namespaces an affinity term looks in: its list and selector, else the pod's own. */
function termNamespaces(ctx: FilterContext, term: PodAffinityTerm): (ns: string) => boolean {
  const own = ctx.pod.metadata?.namespace ?? '';
  const listed = term.namespaces ?? [];
  const selector = term.namespaceSelector;
  if (listed.length === 0 && (selector === undefined || selector === null)) return (ns) => ns === own;
  return (ns) =>
    listed.includes(ns) ||
    (selector !== undefined &&
      selector !== null &&
      matchesLabelSelector(selector, ctx.namespaceLabels(ns) ?? {}));
}

function termMatchesPod(ctx: FilterContext, term: PodAffinityTerm, other: Pod): boolean {
  return (
    termNamespaces(ctx, term)(other.metadata?.namespace ?? '') &&
    matchesLabelSelector(term.labelSelector, other.metadata?.labels)
  );
}

/** The topology domain of a node for a key, or undefined when the node has no such label. */
const domain = (node: Node | undefined, key: string) => node?.metadata?.labels?.[key];

function interPodAffinity(ctx: FilterContext, node: Node): FilterFailure | undefined {
  const affinity = ctx.pod.spec?.affinity;
  const nodes = ctx.state.readyNodes();
  const podsIn = (key: string, value: string) =>
    nodes.filter((i) => domain(i.node, key) === value).flatMap((i) => [...i.pods.values()]);
  for (const term of affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    const v = domain(node, term.topologyKey);
    const matchHere =
      v !== undefined && podsIn(term.topologyKey, v).some((p) => termMatchesPod(ctx, term, p));
    if (matchHere) continue;
    // The first pod of a group that selects itself may go anywhere the topology key is.
    const anyMatch = nodes.some((i) => [...i.pods.values()].some((p) => termMatchesPod(ctx, term, p)));
    if (!anyMatch && v !== undefined && termMatchesPod(ctx, term, ctx.pod)) continue;
    return unresolvable("node(s) didn't match pod affinity rules");
  }
  for (const term of affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    const v = domain(node, term.topologyKey);
    if (v === undefined) continue;
    if (podsIn(term.topologyKey, v).some((p) => termMatchesPod(ctx, term, p)))
      return unschedulable(["node(s) didn't match pod anti-affinity rules"]);
  }
  // Existing pods whose required anti-affinity the incoming pod would break.
  for (const info of nodes) {
    for (const other of info.pods.values()) {
      for (const term of other.spec?.affinity?.podAntiAffinity
        ?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
        const v = domain(info.node, term.topologyKey);
        if (v === undefined || domain(node, term.topologyKey) !== v) continue;
        const ns = term.namespaces ?? [];
        const inNs =
          ns.length === 0
            ? (other.metadata?.namespace ?? '') === (ctx.pod.metadata?.namespace ?? '')
            : ns.includes(ctx.pod.metadata?.namespace ?? '');
        if (inNs && matchesLabelSelector(term.labelSelector, ctx.pod.metadata?.labels))
          return unschedulable(["node(s) didn't satisfy existing pods anti-affinity rules"]);
      }
    }
  }
  return undefined;
}

type Filter = (ctx: FilterContext, node: Node, info: NodeInfo) => FilterFailure | undefined;

export const filters: readonly Filter[] = [
  nodeUnschedulable,
  nodeName,
  taintToleration,
  nodeAffinity,
  nodePorts,
  resourcesFit,
  interPodAffinity,
];

/** The first filter that refuses the node, or undefined when the pod fits. */
export function filterNode(ctx: FilterContext, info: NodeInfo): FilterFailure | undefined {
  const node = info.node;
  if (node === undefined) return unresolvable('node(s) not found');
  for (const f of filters) {
    const failure = f(ctx, node, info);
    if (failure !== undefined) return failure;
  }
  return undefined;
}
