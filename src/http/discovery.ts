/**
 * Discovery documents built from the catalog: `/api` (APIVersions),
 * `/apis` (APIGroupList, preferred version first), `/apis/<group>`
 * (APIGroup), `/api/v1` and `/apis/<group>/<version>` (APIResourceList with
 * `<resource>/<subresource>` entries), and the aggregated form
 * (APIGroupDiscoveryList) that kubectl asks for first.
 */

import type { APIResource } from '../api/meta';
import type { Catalog, ServedGroup, ServedVersion } from '../registry/catalog';
import type { ResourceType } from '../registry/resource-type';
import type { NamingProfile } from '../machinery/naming';

export function apiVersions(serverAddress: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupVersionEntry(group: string, v: ServedVersion) {
  return { groupVersion: `${group}/${v.version}`, version: v.version };
}

function apiGroup(g: ServedGroup) {
  const preferred = g.versions[0];
  return {
    name: g.name,
    versions: g.versions.map((v) => groupVersionEntry(g.name, v)),
    ...(preferred !== undefined ? { preferredVersion: groupVersionEntry(g.name, preferred) } : {}),
  };
}

export function apiGroupList(catalog: Catalog) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: catalog
      .groups()
      .filter((g) => g.name !== '')
      .map(apiGroup),
  };
}

export function apiGroupDocument(g: ServedGroup) {
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g) };
}

function sortedVerbs(verbs: ReadonlySet<string>): string[] {
  return [...verbs].sort();
}

function resourceEntries(rt: ResourceType, hash: string | undefined): APIResource[] {
  const main: APIResource = {
    name: rt.resource,
    singularName: rt.singularName,
    namespaced: rt.namespaced,
    kind: rt.kind,
    verbs: sortedVerbs(rt.verbs),
    ...(rt.shortNames.length > 0 ? { shortNames: [...rt.shortNames] } : {}),
    ...(rt.categories.length > 0 ? { categories: [...rt.categories] } : {}),
    ...(hash !== undefined ? { storageVersionHash: hash } : {}),
  };
  const subs: APIResource[] = [...rt.subresources.values()].map((s) => ({
    name: `${rt.resource}/${s.name}`,
    singularName: '',
    namespaced: rt.namespaced,
    ...(s.group !== undefined ? { group: s.group } : {}),
    ...(s.version !== undefined ? { version: s.version } : {}),
    kind: s.kind,
    verbs: sortedVerbs(s.verbs),
  }));
  return [main, ...subs];
}

export function apiResourceList(group: string, v: ServedVersion, hashes: ReadonlyMap<ResourceType, string>) {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? v.version : `${group}/${v.version}`,
    resources: [...v.resources.values()].flatMap((rt) => resourceEntries(rt, hashes.get(rt))),
  };
}

/** The aggregated discovery document for the core group (`legacy`) or all named groups. */
export function aggregatedDiscovery(profile: NamingProfile, catalog: Catalog, legacy: boolean) {
  const groups = catalog.groups().filter((g) => (g.name === '') === legacy);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `${profile.suffixed('apidiscovery')}/v2beta1`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name === '' ? {} : { name: g.name },
      versions: g.versions.map((v) => ({
        version: v.version,
        resources: [...v.resources.values()].map((rt) => ({
          resource: rt.resource,
          responseKind: { group: rt.group, version: rt.version, kind: rt.kind },
          scope: rt.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: rt.singularName,
          verbs: sortedVerbs(rt.verbs),
          ...(rt.shortNames.length > 0 ? { shortNames: [...rt.shortNames] } : {}),
          ...(rt.categories.length > 0 ? { categories: [...rt.categories] } : {}),
          ...(rt.subresources.size > 0
            ? {
                subresources: [...rt.subresources.values()].map((s) => ({
                  subresource: s.name,
                  responseKind: {
                    group: s.group ?? rt.group,
                    version: s.version ?? rt.version,
                    kind: s.kind,
                  },
                  verbs: sortedVerbs(s.verbs),
                })),
              }
            : {}),
        })),
        freshness: 'Current',
      })),
    })),
  };
}

/** storageVersionHash: the first 8 bytes of SHA-256 over `<group>/<version>/<kind>` of the storage version, base64. */
export async function storageVersionHash(group: string, version: string, kind: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${group}/${version}/${kind}`)),
  );
  let s = '';
  for (const b of digest.slice(0, 8)) s += String.fromCharCode(b);
  return btoa(s);
}
