/**
 * Discovery: reads `/api`, `/apis` and every served group version's resource
 * list, and flattens them into one list of group versions with their
 * top-level resources. A group version whose list fails is reported, not
 * fatal, as `kubectl` does for an unavailable aggregated API.
 */

import type {
  APIGroupList,
  APIResourceList,
  APIVersions,
  DiscoveredGroupVersion,
  Discovery,
  DiscoveryFailure,
} from './discovery-types';
import { groupVersionPath } from './paths';

type GetJson = <T>(path: string) => Promise<T>;

export async function discover(getJson: GetJson): Promise<Discovery> {
  const [core, named] = await Promise.all([getJson<APIVersions>('/api'), getJson<APIGroupList>('/apis')]);
  const wanted: Omit<DiscoveredGroupVersion, 'resources'>[] = [
    ...core.versions.map((version, index) => ({
      group: '',
      version,
      groupVersion: version,
      preferred: index === 0,
    })),
    ...named.groups.flatMap((group) =>
      group.versions.map((v) => ({
        group: group.name,
        version: v.version,
        groupVersion: v.groupVersion,
        preferred: (group.preferredVersion?.version ?? group.versions[0]?.version) === v.version,
      })),
    ),
  ];
  const failed: DiscoveryFailure[] = [];
  const lists = await Promise.all(
    wanted.map((gv) =>
      getJson<APIResourceList>(groupVersionPath(gv.group, gv.version)).catch((error: unknown) => {
        failed.push({ groupVersion: gv.groupVersion, error });
        return undefined;
      }),
    ),
  );
  const groupVersions: DiscoveredGroupVersion[] = [];
  wanted.forEach((gv, index) => {
    const list = lists[index];
    if (list === undefined) return;
    groupVersions.push({ ...gv, resources: list.resources.filter((r) => !r.name.includes('/')) });
  });
  return { groupVersions, failed };
}
