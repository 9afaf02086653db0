/**
 * Controller references and claiming, as client-go's `ControllerRefManager`:
 * a controller owns the objects whose controller reference names its uid;
 * it adopts orphans its selector matches (after re-reading itself, so a
 * controller being deleted never adopts) and releases owned objects its
 * selector no longer matches. Adoption and release are strategic-merge
 * patches of `ownerReferences` carrying the object's uid, so they never
 * touch an object re-created under the same name.
 */

import type { KubeObject, OwnerReference } from '../../api/meta';
import type { ApiClient, ObjectRef } from '../../client/client';
import type { ResourceRef } from '../../client/paths';
import { isNotFound } from '../api-errors';
import type { InvolvedKind } from '../events';
import { isTerminating } from './pods';

export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

export function newControllerRef(owner: KubeObject, kind: InvolvedKind): OwnerReference {
  return {
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    name: owner.metadata?.name ?? '',
    uid: owner.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

export interface ClaimOptions<T extends KubeObject> {
  client: ApiClient;
  owner: KubeObject;
  ownerKind: InvolvedKind;
  /** The owner's own resource, to re-read it before adopting. */
  ownerRef: ResourceRef;
  /** The resource of the claimed objects (pods, replica sets, controller revisions). */
  ref: ResourceRef;
  candidates: T[];
  match: (obj: T) => boolean;
}

/** The candidates the owner controls once orphans are adopted and strays released. */
export async function claim<T extends KubeObject>(o: ClaimOptions<T>): Promise<T[]> {
  const uid = o.owner.metadata?.uid ?? '';
  const ownerDeleting = isTerminating(o.owner);
  let adoptable: Promise<boolean> | undefined;
  const canAdopt = (): Promise<boolean> =>
    (adoptable ??= (async () => {
      try {
        const fresh = await o.client.get({
          ...o.ownerRef,
          namespace: o.owner.metadata?.namespace ?? '',
          name: o.owner.metadata?.name ?? '',
        });
        return fresh.metadata?.uid === uid && !isTerminating(fresh);
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
    })());
  const claimed: T[] = [];
  for (const obj of o.candidates) {
    const ref = controllerOf(obj);
    const target: ObjectRef = {
      ...o.ref,
      namespace: obj.metadata?.namespace ?? '',
      name: obj.metadata?.name ?? '',
    };
    if (ref !== undefined) {
      if (ref.uid !== uid) continue;
      if (o.match(obj)) {
        claimed.push(obj);
        continue;
      }
      if (ownerDeleting) continue;
      try {
        await o.client.patch(
          target,
          { metadata: { ownerReferences: [{ $patch: 'delete', uid }], uid: obj.metadata?.uid } },
          'application/strategic-merge-patch+json',
        );
      } catch (e) {
        // Gone, or already changed by someone else: either way it is no longer ours to release.
        if (!isNotFound(e) && !isUidMismatch(e)) throw e;
      }
      continue;
    }
    if (ownerDeleting || !o.match(obj) || isTerminating(obj)) continue;
    if (!(await canAdopt())) continue;
    try {
      const adopted = await o.client.patch<T>(
        target,
        {
          metadata: {
            ownerReferences: [newControllerRef(o.owner, o.ownerKind)],
            uid: obj.metadata?.uid,
          },
        },
        'application/strategic-merge-patch+json',
      );
      claimed.push(adopted);
    } catch (e) {
      if (isNotFound(e) || isUidMismatch(e)) continue;
      throw e;
    }
  }
  return claimed;
}

/** A patch whose uid names another object than the stored one (re-created under the same name). */
function isUidMismatch(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'code' in e && (e as { code: number }).code === 422;
}
