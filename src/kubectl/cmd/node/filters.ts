/**
 * Which pods on a node `kubectl drain` may evict (the drain helper's
 * filters, in its order, the first refusal deciding): DaemonSet pods are
 * an error unless `--ignore-daemonsets` (then skipped with a warning),
 * mirror pods are skipped, pods with emptyDir volumes need
 * `--delete-emptydir-data`, pods without a controller need `--force`;
 * finished pods always go. The messages, grouped by message with the pods
 * it names, are kubectl's own.
 */

import type { KubeObject } from '../../../api/meta';

type Obj = Record<string, unknown>;

export interface DrainOptions {
  force: boolean;
  ignoreDaemonSets: boolean;
  deleteEmptyDirData: boolean;
}

export interface PodVerdict {
  pod: KubeObject;
  delete: boolean;
  reason: 'okay' | 'skip' | 'warning' | 'error';
  message: string;
}

export const daemonSetFatal = 'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
export const daemonSetWarning = 'ignoring DaemonSet-managed Pods';
export const localStorageFatal =
  'cannot delete Pods with local storage (use --delete-emptydir-data to override)';
export const localStorageWarning = 'deleting Pods with local storage';
export const unmanagedFatal = 'cannot delete Pods declare no controller (use --force to override)';
export const unmanagedWarning = 'deleting Pods that declare no controller';

function phase(pod: KubeObject): string {
  return String(((pod['status'] ?? {}) as Obj)['phase'] ?? '');
}

function finished(pod: KubeObject): boolean {
  return phase(pod) === 'Succeeded' || phase(pod) === 'Failed';
}

function controllerOf(pod: KubeObject) {
  return pod.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/**
 * The verdict on one pod; `daemonSetExists` says whether a DaemonSet owner
 * still exists (an orphan is evicted with a warning under `--force`).
 */
export function verdict(pod: KubeObject, o: DrainOptions, daemonSetExists = true): PodVerdict {
  const okay: PodVerdict = { pod, delete: true, reason: 'okay', message: '' };
  const filters: ((p: KubeObject) => PodVerdict)[] = [
    (p) => {
      const ref = controllerOf(p);
      if (ref === undefined || ref.kind !== 'DaemonSet') return okay;
      if (p.metadata?.deletionTimestamp && finished(p)) return okay;
      if (!daemonSetExists) {
        if (o.force)
          return {
            pod,
            delete: true,
            reason: 'warning',
            message: `daemonsets.apps "${ref.name}" not found`,
          };
        return { pod, delete: false, reason: 'error', message: `daemonsets.apps "${ref.name}" not found` };
      }
      if (!o.ignoreDaemonSets) return { pod, delete: false, reason: 'error', message: daemonSetFatal };
      return { pod, delete: false, reason: 'warning', message: daemonSetWarning };
    },
    (p) =>
      p.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined
        ? { pod, delete: false, reason: 'skip', message: '' }
        : okay,
    (p) => {
      const volumes = (((p['spec'] ?? {}) as Obj)['volumes'] ?? []) as Obj[];
      if (!volumes.some((v) => v['emptyDir'] !== undefined)) return okay;
      if (finished(p)) return okay;
      if (!o.deleteEmptyDirData) return { pod, delete: false, reason: 'error', message: localStorageFatal };
      return { pod, delete: true, reason: 'warning', message: localStorageWarning };
    },
    (p) => {
      if (finished(p) || controllerOf(p) !== undefined) return okay;
      if (o.force) return { pod, delete: true, reason: 'warning', message: unmanagedWarning };
      return { pod, delete: false, reason: 'error', message: unmanagedFatal };
    },
  ];
  let status = okay;
  for (const filter of filters) {
    status = filter(pod);
    if (!status.delete) break;
  }
  return status;
}

/** `message: ns/a, ns/b` per message of the given reason, in first-seen order. */
export function grouped(verdicts: PodVerdict[], reason: 'warning' | 'error'): string[] {
  const byMessage = new Map<string, string[]>();
  for (const v of verdicts) {
    if (v.reason !== reason) continue;
    const list = byMessage.get(v.message) ?? [];
    list.push(`${v.pod.metadata?.namespace ?? ''}/${v.pod.metadata?.name ?? ''}`);
    byMessage.set(v.message, list);
  }
  return [...byMessage].map(([m, pods]) => `${m}: ${pods.join(', ')}`);
}
