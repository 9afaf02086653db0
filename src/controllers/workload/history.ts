/**
 * ControllerRevisions, the history of StatefulSets and DaemonSets, as
 * upstream's `controller/history` keeps it: a revision's data is the patch
 * that restores the owner's pod template (`{"spec":{"template":{…,
 * "$patch":"replace"}}}`, keys sorted as Go writes a map, so kubectl's
 * `rollout undo` can compare it with the live object and apply it as a
 * strategic merge patch), its name is the owner's and a hash, its labels
 * the template's plus `controller-revision-hash`, its annotations the
 * owner's (so `kubectl rollout history` shows the change-cause), and its
 * `revision` a number that a rollback to it moves past the others.
 */

import type { KubeObject } from '../../api/meta';
import { canonicalJson, computeHash } from './hash';
import type { ControllerRevision, PodTemplateSpec } from './types';

export const revisionsRef = { group: 'apps', version: 'v1', resource: 'controllerrevisions' } as const;
export const revisionHashLabel = 'controller-revision-hash';

type WithTemplate = KubeObject & { spec?: { template?: PodTemplateSpec } };

/** The patch that restores `owner`'s template, as the revision's `data`. */
export function templatePatch(owner: WithTemplate): Record<string, unknown> {
  const template = { ...(owner.spec?.template ?? {}), $patch: 'replace' };
  return JSON.parse(canonicalJson(withoutNulls({ spec: { template } }))) as Record<string, unknown>;
}

/**
 * The template as the server sends it carries the zero values Go writes (`creationTimestamp: null`),
 * which a revision read back does not: nulls are left out of the data, its hash and the comparison
 * alike — else every sync saw a hash collision and bumped `collisionCount`.
 */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

/** Whether `revision` records `owner`'s current template. */
export function revisionMatches(owner: WithTemplate, revision: ControllerRevision): boolean {
  return canonicalJson(withoutNulls(revision.data ?? {})) === canonicalJson(templatePatch(owner));
}

/** `owner` with the template `revision` records. */
export function applyRevision<T extends WithTemplate>(owner: T, revision: ControllerRevision): T {
  const copy = structuredClone(owner);
  const data = (revision.data ?? {}) as { spec?: { template?: Record<string, unknown> } };
  const { $patch: _replace, ...template } = data.spec?.template ?? {};
  copy.spec = { ...copy.spec, template: template as PodTemplateSpec };
  return copy;
}

function created(r: ControllerRevision): number {
  const t = r.metadata?.creationTimestamp;
  return t !== undefined && t !== null ? Date.parse(t) : 0;
}

/** By revision, then creation, then name (`SortControllerRevisions`). */
export function sortRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort((a, b) => {
    const d = (a.revision ?? 0) - (b.revision ?? 0);
    if (d !== 0) return d;
    const c = created(a) - created(b);
    if (c !== 0) return c;
    const an = a.metadata?.name ?? '';
    const bn = b.metadata?.name ?? '';
    return an < bn ? -1 : an > bn ? 1 : 0;
  });
}

export function nextRevision(revisions: ControllerRevision[]): number {
  return revisions.reduce((m, r) => Math.max(m, r.revision ?? 0), 0) + 1;
}

/** A new revision of `owner` (not yet created), named `<owner>-<hash>`. */
export function newRevision(
  owner: WithTemplate,
  controllerRef: NonNullable<KubeObject['metadata']>['ownerReferences'],
  revision: number,
  collisionCount: number | undefined,
): ControllerRevision {
  const data = templatePatch(owner);
  const hash = computeHash(data, collisionCount);
  const name = `${(owner.metadata?.name ?? '').slice(0, 223)}-${hash}`;
  const annotations = owner.metadata?.annotations;
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: owner.metadata?.namespace ?? '',
      labels: { ...(owner.spec?.template?.metadata?.labels ?? {}), [revisionHashLabel]: hash },
      ...(annotations !== undefined ? { annotations: { ...annotations } } : {}),
      ...(controllerRef !== undefined ? { ownerReferences: controllerRef } : {}),
    },
    data,
    revision,
  };
}
