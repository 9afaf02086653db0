/**
 * Which pod updates are worth evaluating. Most of a pod's spec is
 * immutable, so, like the real plugin, only a change of a container's image
 * or of its seccomp annotation, a different number of containers, or an
 * ephemeral container added or changed (the `ephemeralcontainers`
 * subresource) triggers an evaluation; metadata-only updates pass.
 */

import type { ContainerView, PodMetaView, PodSpecView } from './pod-view';
import type { ExtractedPod } from './pod-spec';

const seccompContainerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';

function significantContainerChange(
  c: ContainerView,
  old: ContainerView,
  meta: PodMetaView,
  oldMeta: PodMetaView,
): boolean {
  if (c.image !== old.image) return true;
  const key = seccompContainerAnnotationPrefix + (c.name ?? '');
  return (meta.annotations ?? {})[key] !== (oldMeta.annotations ?? {})[key];
}

function sameList(
  list: ContainerView[] | undefined,
  oldList: ContainerView[] | undefined,
  meta: PodMetaView,
  oldMeta: PodMetaView,
): boolean {
  const a = list ?? [];
  const b = oldList ?? [];
  if (a.length !== b.length) return false;
  return a.every((c, i) => !significantContainerChange(c, b[i] ?? {}, meta, oldMeta));
}

export function isSignificantPodUpdate(pod: ExtractedPod, old: ExtractedPod): boolean {
  const spec: PodSpecView = pod.spec;
  const oldSpec: PodSpecView = old.spec;
  if (!sameList(spec.containers, oldSpec.containers, pod.meta, old.meta)) return true;
  if (!sameList(spec.initContainers, oldSpec.initContainers, pod.meta, old.meta)) return true;
  for (const c of spec.ephemeralContainers ?? []) {
    const previous = (oldSpec.ephemeralContainers ?? []).find((o) => o.name === c.name);
    if (previous === undefined) return true;
    if (significantContainerChange(c, previous, pod.meta, old.meta)) return true;
  }
  return false;
}
