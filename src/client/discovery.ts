/**
 * Discovery, flattened into one list of group versions with their top-level
 * resources. As kubectl since v1.26, it first asks `/api` and `/apis` for the
 * aggregated documents (two requests for everything); a server that answers
 * with the older lists instead is read the older way, `/api`, `/apis` and
 * then every served group version's resource list. A group version whose
 * list fails (or is marked stale) is reported, not fatal, as kubectl does for
 * an unavailable aggregated API.
 */

import type {
  APIGroupDiscovery,
  APIGroupDiscoveryList,
  APIGroupList,
  APIResourceList,
  APIVersions,
  DiscoveredGroupVersion,
  Discovery,
  DiscoveryFailure,
} from './discovery-types';
import { groupVersionPath } from './paths';

type GetJson = <T>(path: string, accept?: string) => Promise<T>;

/**
 * The aggregated form first, the plain lists as fallback. Both groups' names are offered: the
 * document's group is `apidiscovery.k8s.io`, or `apidiscovery.orch.io` under the orch profile.
 */
export const aggregatedDiscoveryAccept = [
  'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList',
  'application/json',
].join(',');

export async function discover(getJson: GetJson): Promise<Discovery> {
  const [core, named] = await Promise.all([
    getJson<APIVersions | APIGroupDiscoveryList>('/api', aggregatedDiscoveryAccept),
    getJson<APIGroupList | APIGroupDiscoveryList>('/apis', aggregatedDiscoveryAccept),
  ]);
  if (core.kind === 'APIGroupDiscoveryList' && named.kind === 'APIGroupDiscoveryList')
    return fromAggregated([...core.items, ...named.items]);
  return discoverByLists(
    getJson,
    core.kind === 'APIVersions' ? core : await getJson<APIVersions>('/api'),
    named.kind === 'APIGroupList' ? named : await getJson<APIGroupList>('/apis'),
  );
}

/** The aggregated documents: every group's versions in preference order, with their resources. */
function fromAggregated(groups: APIGroupDiscovery[]): Discovery {
  const groupVersions: DiscoveredGroupVersion[] = [];
  const failed: DiscoveryFailure[] = [];
  for (const g of groups) {
    const group = g.metadata?.name ?? '';
    g.versions.forEach((v, index) => {
      const groupVersion = group === '' ? v.version : `${group}/${v.version}`;
      if (v.freshness === 'Stale') {
        failed.push({ groupVersion, error: new Error(`the discovery of ${groupVersion} is stale`) });
        return;
      }
      groupVersions.push({
        group,
        version: v.version,
        groupVersion,
        preferred: index === 0,
        resources: (v.resources ?? []).map((r) => ({
          name: r.resource,
          singularName: r.singularResource ?? '',
          namespaced: r.scope === 'Namespaced',
          kind: r.responseKind?.kind ?? '',
          verbs: r.verbs,
          ...(r.shortNames !== undefined ? { shortNames: r.shortNames } : {}),
          ...(r.categories !== undefined ? { categories: r.categories } : {}),
        })),
      });
    });
  }
  return { groupVersions, failed };
}

async function discoverByLists(getJson: GetJson, core: APIVersions, named: APIGroupList): Promise<Discovery> {
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
