/**
 * Whether a pod may run on a node, as the DaemonSet controller decides it
 * (upstream `NodeShouldRunDaemonPod`): the pod's `nodeName`, `nodeSelector`
 * and required node affinity must match the node, and every taint with
 * effect NoSchedule or NoExecute must be tolerated — judged by the same
 * node-affinity and taint rules the scheduler uses
 * (`machinery/scheduling`). A pod that only fails on NoSchedule taints may
 * keep running where it already runs.
 */

import type { KubeObject } from '../../api/meta';
import type { Node } from '../../api/node';
import type { NodeSelectorTerm, Pod } from '../../api/pod';
import { matchesNodeSelectorAndAffinity } from '../../machinery/scheduling/node-affinity';
import { firstUntolerated } from '../../machinery/scheduling/taints';
import type { PodSpec } from './types';

// The workload controllers' loose pod spec read as the API's typed one (the same wire shape).
const asNode = (node: KubeObject): Node => node as Node;
const asPod = (spec: PodSpec): Pod => ({ spec: spec as Pod['spec'] });

function requiredTerms(spec: PodSpec): NodeSelectorTerm[] | undefined {
  return asPod(spec).spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms;
}

/** `{ shouldRun, shouldContinueRunning }` of a daemon pod with `spec` on `node`. */
export function daemonPodFits(spec: PodSpec, node: KubeObject): { run: boolean; keep: boolean } {
  const name = node.metadata?.name ?? '';
  if (spec.nodeName !== undefined && spec.nodeName !== '' && spec.nodeName !== name)
    return { run: false, keep: false };
  const n = asNode(node);
  if (!matchesNodeSelectorAndAffinity(asPod(spec), n)) return { run: false, keep: false };
  const taints = n.spec?.taints;
  const tolerations = asPod(spec).spec?.tolerations;
  if (firstUntolerated(taints, tolerations, ['NoSchedule', 'NoExecute']) === undefined)
    return { run: true, keep: true };
  return { run: false, keep: firstUntolerated(taints, tolerations, ['NoExecute']) === undefined };
}

/** The node a daemon pod targets: its `nodeName`, or the one name its node affinity pins it to. */
export function targetNodeName(spec: PodSpec): string | undefined {
  if (spec.nodeName !== undefined && spec.nodeName !== '') return spec.nodeName;
  for (const term of requiredTerms(spec) ?? [])
    for (const f of term.matchFields ?? [])
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  return undefined;
}

/** The pod's affinity with a required term pinning it to `nodeName` (`ReplaceDaemonSetPodNodeNameNodeAffinity`). */
export function pinToNode(
  affinity: Record<string, unknown> | undefined,
  nodeName: string,
): Record<string, unknown> {
  const term: NodeSelectorTerm = {
    matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }],
  };
  const a = structuredClone(affinity ?? {}) as {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    };
  };
  const nodeAffinity = (a.nodeAffinity ??= {});
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined || (required.nodeSelectorTerms ?? []).length === 0) {
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: [term] };
    return a;
  }
  // Every term keeps its expressions and gets the node-name field instead of any it had.
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: (required.nodeSelectorTerms ?? []).map((t) => ({
      ...(t.matchExpressions !== undefined ? { matchExpressions: t.matchExpressions } : {}),
      matchFields: term.matchFields,
    })),
  };
  return a;
}
