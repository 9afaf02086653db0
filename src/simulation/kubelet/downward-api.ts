/**
 * The downward API as the kubelet resolves it, for environment variables
 * (`valueFrom.fieldRef`, `valueFrom.resourceFieldRef`) and for the files of
 * `downwardAPI` volumes: the pod's name, namespace, uid, labels and
 * annotations (all of them as `key="value"` lines, sorted), node name,
 * service account, host and pod IPs; and a container's resource requests
 * and limits divided by a divisor and rounded up, a missing limit being
 * the node's allocatable amount.
 */

import type { Container, Pod } from '../../api/pod';
import { parseQuantity } from '../../machinery/quantity';

/** `key="value"` lines, sorted by key, as the kubelet writes all labels or annotations. */
function formatMap(map: Record<string, string> | undefined): string {
  return Object.keys(map ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify((map ?? {})[k] ?? '')}`)
    .join('\n');
}

/** The value of a field path of the pod, or undefined when the path is not one the downward API offers. */
export function podFieldValue(pod: Pod, fieldPath: string): string | undefined {
  const m = pod.metadata ?? {};
  const subscript = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (subscript !== null) {
    const map = subscript[1] === 'labels' ? m.labels : m.annotations;
    return map?.[subscript[2] ?? ''] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name':
      return m.name ?? '';
    case 'metadata.namespace':
      return m.namespace ?? '';
    case 'metadata.uid':
      return m.uid ?? '';
    case 'metadata.labels':
      return formatMap(m.labels);
    case 'metadata.annotations':
      return formatMap(m.annotations);
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
      return pod.status?.hostIP ?? '';
    case 'status.hostIPs':
      return pod.status?.hostIP ?? '';
    case 'status.podIP':
      return pod.status?.podIP ?? '';
    case 'status.podIPs':
      return (pod.status?.podIPs ?? []).map((p) => p.ip).join(',');
    default:
      return undefined;
  }
}

/** A container's request or limit (`limits.cpu`, `requests.memory`) divided by `divisor`, rounded up. */
export function resourceFieldValue(
  container: Container | undefined,
  resource: string,
  divisor: string | number | undefined,
  allocatable: Record<string, string>,
): string | undefined {
  const m = /^(limits|requests)\.(.+)$/.exec(resource);
  if (m === null) return undefined;
  const [, kind = '', name = ''] = m;
  const declared = container?.resources?.[kind as 'limits' | 'requests']?.[name];
  // A missing limit is what the node can give; a missing request is the limit, or zero (as the kubelet defaults).
  const raw =
    declared ??
    (kind === 'limits'
      ? allocatable[name]
      : (container?.resources?.limits?.[name] ?? (name === 'cpu' ? '0' : '0')));
  const value = parseQuantity(raw ?? '0');
  const by = parseQuantity(divisor === undefined || divisor === '' ? '1' : divisor);
  if (value === undefined || by === undefined || by.nanos === 0n) return undefined;
  const result = (value.nanos + by.nanos - 1n) / by.nanos;
  // CPU is at least one of the divisor's units when anything was asked for (the kubelet rounds up).
  return String(kind === 'limits' && name === 'cpu' && result === 0n && value.nanos > 0n ? 1n : result);
}
