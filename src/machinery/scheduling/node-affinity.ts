/**
 * Whether a node suits a pod's placement rules (the scheduler's
 * NodeAffinity filter, and the DaemonSet controller's node check): every
 * `nodeSelector` label, and — when there is required node affinity — at
 * least one of its terms, a term holding when all its `matchExpressions`
 * hold for the node's labels and all its `matchFields` for its fields
 * (only `metadata.name`). Operators In, NotIn, Exists, DoesNotExist, Gt and
 * Lt as `NodeSelectorRequirement` defines them.
 */

import type { Node } from '../../api/node';
import type { NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../api/pod';

function requirementHolds(r: NodeSelectorRequirement, value: string | undefined): boolean {
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
      if (value === undefined || !/^-?\d+$/.test(value) || values.length !== 1) return false;
      const bound = Number(values[0]);
      return r.operator === 'Gt' ? Number(value) > bound : Number(value) < bound;
    }
    default:
      return false;
  }
}

/** Whether one node selector term holds (an empty term matches nothing). */
export function termMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  const label = (k: string) => (Object.prototype.hasOwnProperty.call(labels, k) ? labels[k] : undefined);
  return (
    exprs.every((r) => requirementHolds(r, label(r.key))) &&
    fields.every((r) =>
      requirementHolds(r, r.key === 'metadata.name' ? (node.metadata?.name ?? '') : undefined),
    )
  );
}

/** Whether the node matches the pod's `nodeSelector` and required node affinity. */
export function matchesNodeSelectorAndAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required === undefined || required === null) return true;
  return (required.nodeSelectorTerms ?? []).some((t) => termMatches(t, node));
}
