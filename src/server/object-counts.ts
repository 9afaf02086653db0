/**
 * `apiserver_storage_objects`: how many objects each stored resource holds,
 * labelled as the real object-count tracker labels them (`pods`,
 * `deployments.apps`, custom resources included). Counted on the raw store
 * (so counting is not itself timed as store requests) when `/metrics` is
 * scraped, and then kept current from this process's commits: a scrape
 * recounts only when the store moved by writes this process did not see (an
 * import, another replica on the same store) or the served kinds changed.
 * A count of every collection costs a pass over the whole store on a
 * backend whose count scans, and the UI scrapes every two seconds while
 * controllers keep writing; following the commits keeps a scrape flat as
 * the store grows.
 */

import type { Catalog } from '../registry/catalog';
import type { RestInstaller } from '../registry/installer';
import { collectionPrefix, resourcePrefixOf } from '../registry/keys';
import type { ChangeRecord, Storage } from '../storage/types';
import { groupResourceLabel } from './metrics';

/** Counts at a revision, with the collection prefix each label counts. */
interface Counted {
  revision: number;
  generation: number;
  counts: Map<string, number>;
  labels: Map<string, string>;
}

/** The counter `/metrics` calls, and how to stop it following the store. */
export interface StoredObjectCounter {
  (): Promise<Map<string, number>>;
  stop(): void;
}

/** A counter that counts once, then moves its counts by this process's commits while they account for every revision. */
export function storedObjectCounter(
  catalog: Catalog,
  installer: RestInstaller,
  storage: Storage,
): StoredObjectCounter {
  let last: Counted | undefined;
  let unsubscribe: (() => void) | undefined;
  const follow = (change: ChangeRecord): void => {
    if (last === undefined || change.revision !== last.revision + 1) {
      // A revision this process did not see: the next scrape counts again.
      last = undefined;
      return;
    }
    last.revision = change.revision;
    if (change.type === 'MODIFIED') return;
    const label = last.labels.get(resourcePrefixOf(change.key));
    if (label === undefined) return;
    last.counts.set(label, (last.counts.get(label) ?? 0) + (change.type === 'ADDED' ? 1 : -1));
  };
  const counter = async (): Promise<Map<string, number>> => {
    unsubscribe ??= storage.onCommit(follow);
    const revision = await storage.currentRevision();
    if (last?.revision === revision && last.generation === catalog.generation) return new Map(last.counts);
    const generation = catalog.generation;
    const homes = storedHomes(catalog, installer);
    const counts = await countHomes(homes, storage);
    // Only a count no write raced with is a base to follow commits from.
    last =
      (await storage.currentRevision()) === revision
        ? {
            revision,
            generation,
            counts,
            labels: new Map([...homes].map(([label, gr]) => [collectionPrefix(gr), label])),
          }
        : undefined;
    return new Map(counts);
  };
  return Object.assign(counter, {
    stop: () => {
      unsubscribe?.();
      unsubscribe = undefined;
      last = undefined;
    },
  });
}

/** Each stored resource's label and where it is stored. */
function storedHomes(
  catalog: Catalog,
  installer: RestInstaller,
): Map<string, { group: string; resource: string }> {
  const homes = new Map<string, { group: string; resource: string }>();
  for (const g of catalog.groups())
    for (const v of g.versions)
      for (const rt of v.resources.values()) {
        // Subresources and kinds that are never stored (reviews) have no objects to count.
        if (rt.resource.includes('/') || installer.storages(rt).store === undefined) continue;
        homes.set(groupResourceLabel(rt.storage.group, rt.storage.resource), rt.storage);
      }
  return homes;
}

async function countHomes(
  homes: Map<string, { group: string; resource: string }>,
  storage: Storage,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await Promise.all(
    [...homes.entries()].map(async ([label, gr]) => {
      counts.set(label, await storage.count(collectionPrefix(gr)));
    }),
  );
  return counts;
}
