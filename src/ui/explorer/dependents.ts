/**
 * What deleting an object reaches, found the way the garbage collector and
 * the namespace controller find it: its dependents are the objects, of any
 * listable kind in its scope, whose `ownerReferences` carry its uid (one
 * list per kind, since the API has no reverse index); a namespace's
 * contents are every object of a namespaced kind in it. Each kind is listed
 * once, in its preferred version, so an object served in two versions is
 * not counted twice.
 */

import type { KubeObject } from '../../api/meta';
import type { ApiClient, DiscoveredGroupVersion } from '../../client/index';
import { choiceParam, listableChoices, type ResourceChoice } from '../lib/resource-choice';
import { routeHref } from '../lib/route';

export interface Related {
  kind: string;
  name: string;
  namespace: string | undefined;
  href: string;
  /** For dependents: whether this reference blocks the owner's foreground deletion. */
  blocks: boolean;
}

export interface Reach {
  dependents: Related[];
  /** Only for a Namespace: the objects the namespace controller deletes with it. */
  contents: Related[] | undefined;
}

export type Progress = (done: number, total: number) => void;

/** Whether `object` is a core Namespace (its deletion empties it first). */
export function isNamespace(object: KubeObject): boolean {
  return object.apiVersion === 'v1' && object.kind === 'Namespace';
}

/** The dependents of `object` and, for a namespace, its contents. */
export async function findReach(
  client: ApiClient,
  groupVersions: DiscoveredGroupVersion[],
  object: KubeObject,
  progress: Progress = () => undefined,
): Promise<Reach> {
  const uid = object.metadata?.uid;
  const namespace = object.metadata?.namespace;
  const namespaceName = isNamespace(object) ? object.metadata?.name : undefined;
  // A namespaced owner can only own objects in its namespace; a cluster-scoped one, objects anywhere.
  const kinds = preferredKinds(groupVersions).filter((c) => namespace === undefined || c.resource.namespaced);
  const dependents: Related[] = [];
  const contents: Related[] = [];
  let done = 0;
  progress(0, kinds.length);
  await Promise.all(
    kinds.map(async (choice) => {
      try {
        // A cluster-scoped owner (a namespace among them) lists namespaced kinds across all namespaces.
        const list = await client.list({
          group: choice.group,
          version: choice.version,
          resource: choice.resource.name,
          ...(namespace !== undefined && choice.resource.namespaced ? { namespace } : {}),
        });
        for (const item of list.items) {
          const ref = item.metadata?.ownerReferences?.find((owner) => owner.uid === uid);
          if (uid !== undefined && ref !== undefined)
            dependents.push(related(choice, item, ref.blockOwnerDeletion === true));
          if (
            namespaceName !== undefined &&
            choice.resource.namespaced &&
            item.metadata?.namespace === namespaceName
          )
            contents.push(related(choice, item, false));
        }
      } catch {
        // A kind that cannot be listed has nothing to show; the deletion is the server's to judge.
      }
      progress(++done, kinds.length);
    }),
  );
  const order = (a: Related, b: Related) => `${a.kind}/${a.name}`.localeCompare(`${b.kind}/${b.name}`);
  return {
    dependents: dependents.sort(order),
    contents: namespaceName === undefined ? undefined : contents.sort(order),
  };
}

function preferredKinds(groupVersions: DiscoveredGroupVersion[]): ResourceChoice[] {
  const seen = new Set<string>();
  return listableChoices(groupVersions).filter((c) => {
    // Subresources are not kinds of their own; the first version of a group is its preferred one.
    if (c.resource.name.includes('/')) return false;
    const key = `${c.group}/${c.resource.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function related(choice: ResourceChoice, item: KubeObject, blocks: boolean): Related {
  return {
    kind: choice.resource.kind,
    name: item.metadata?.name ?? '',
    namespace: item.metadata?.namespace,
    blocks,
    href: routeHref('explorer', {
      kind: choiceParam(choice),
      ns: item.metadata?.namespace,
      name: item.metadata?.name,
    }),
  };
}
