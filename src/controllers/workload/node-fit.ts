/**
 * Whether a pod may run on a node, as the DaemonSet controller decides it
 * (upstream `NodeShouldRunDaemonPod`): the pod's `nodeName`, `nodeSelector`
 * and required node affinity (terms ORed, expressions within a term ANDed;
 * `matchFields` on `metadata.name`) must match the node, and every taint
 * with effect NoSchedule or NoExecute must be tolerated. A pod that only
 * fails on NoSchedule taints may keep running where it already runs.
 */

import type { KubeObject } from '../../api/meta';
import type { PodSpec, Toleration } from './types';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

interface NodeSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export function nodeTaints(node: KubeObject): Taint[] {
  return ((node.spec as { taints?: Taint[] } | undefined)?.taints ?? []).filter((t) => t.key !== undefined);
}

/** Whether `toleration` tolerates `taint` (`Toleration.ToleratesTaint`). */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== undefined && toleration.effect !== '' && toleration.effect !== taint.effect)
    return false;
  if (toleration.key !== undefined && toleration.key !== '' && toleration.key !== taint.key) return false;
  const op = toleration.operator ?? 'Equal';
  if (op === 'Exists') return true;
  return op === 'Equal' && (toleration.value ?? '') === (taint.value ?? '');
}

export function untolerated(taints: Taint[], tolerations: Toleration[], effects: string[]): Taint[] {
  return taints.filter((t) => effects.includes(t.effect) && !tolerations.some((tol) => tolerates(tol, t)));
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || !/^-?\d+$/.test(value)) return false;
      const n = Number(value);
      const bound = Number(values[0]);
      return r.operator === 'Gt' ? n > bound : n < bound;
    }
    default:
      return false;
  }
}

function termMatches(term: NodeSelectorTerm, node: KubeObject): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  return (
    exprs.every((r) => requirementMatches(r, labels[r.key])) &&
    fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, node.metadata?.name))
  );
}

function requiredTerms(spec: PodSpec): NodeSelectorTerm[] | undefined {
  const affinity = spec.affinity as
    | {
        nodeAffinity?: {
          requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
        };
      }
    | undefined;
  return affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
}

/** nodeSelector and required node affinity. */
export function matchesNodeAffinity(spec: PodSpec, node: KubeObject): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms = requiredTerms(spec);
  if (terms === undefined) return true;
  return terms.some((t) => termMatches(t, node));
}

/** `{ shouldRun, shouldContinueRunning }` of a daemon pod with `spec` on `node`. */
export function daemonPodFits(spec: PodSpec, node: KubeObject): { run: boolean; keep: boolean } {
  const name = node.metadata?.name ?? '';
  if (spec.nodeName !== undefined && spec.nodeName !== '' && spec.nodeName !== name)
    return { run: false, keep: false };
  if (!matchesNodeAffinity(spec, node)) return { run: false, keep: false };
  const taints = nodeTaints(node);
  const tolerations = spec.tolerations ?? [];
  if (untolerated(taints, tolerations, ['NoSchedule', 'NoExecute']).length === 0)
    return { run: true, keep: true };
  return { run: false, keep: untolerated(taints, tolerations, ['NoExecute']).length === 0 };
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
