/**
 * `apiserver_storage_objects`: how many objects each stored resource holds,
 * labelled as the real object-count tracker labels them (`pods`,
 * `deployments.apps`, custom resources included). Counted on the raw store
 * (so counting is not itself timed as store requests) when `/metrics` is
 * scraped and the store's revision moved since the last count, instead of
 * once a minute: a dashboard polling an idle server costs one revision read.
 */

import type { Catalog } from '../registry/catalog';
import type { RestInstaller } from '../registry/installer';
import { collectionPrefix } from '../registry/keys';
import type { Storage } from '../storage/types';
import { groupResourceLabel } from './metrics';

/** A counter that reuses its last answer while the store's revision stays the same. */
export function storedObjectCounter(
  catalog: Catalog,
  installer: RestInstaller,
  storage: Storage,
): () => Promise<Map<string, number>> {
  let last: { revision: number; counts: Map<string, number> } | undefined;
  return async () => {
    const revision = await storage.currentRevision();
    if (last?.revision !== revision)
      last = { revision, counts: await countStoredObjects(catalog, installer, storage) };
    return last.counts;
  };
}

export async function countStoredObjects(
  catalog: Catalog,
  installer: RestInstaller,
  storage: Storage,
): Promise<Map<string, number>> {
  const homes = new Map<string, { group: string; resource: string }>();
  for (const g of catalog.groups())
    for (const v of g.versions)
      for (const rt of v.resources.values()) {
        // Subresources and kinds that are never stored (reviews) have no objects to count.
        if (rt.resource.includes('/') || installer.storages(rt).store === undefined) continue;
        homes.set(groupResourceLabel(rt.storage.group, rt.storage.resource), rt.storage);
      }
  const counts = new Map<string, number>();
  await Promise.all(
    [...homes.entries()].map(async ([label, gr]) => {
      counts.set(label, await storage.count(collectionPrefix(gr)));
    }),
  );
  return counts;
}
