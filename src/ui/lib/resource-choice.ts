/**
 * The kind the user is looking at: a resource of one served group version,
 * as discovery describes it. Also picks the kind shown first.
 */

import type { APIResource } from '../../api/meta';
import type { DiscoveredGroupVersion, ResourceRef } from '../../client/index';

export interface ResourceChoice {
  group: string;
  version: string;
  groupVersion: string;
  resource: APIResource;
}

export function choiceKey(choice: ResourceChoice): string {
  return `${choice.groupVersion}/${choice.resource.name}`;
}

/** The collection `choice` names, in `namespace` when the resource is namespaced. */
export function collectionRef(choice: ResourceChoice, namespace: string): ResourceRef {
  const ref: ResourceRef = { group: choice.group, version: choice.version, resource: choice.resource.name };
  if (choice.resource.namespaced) ref.namespace = namespace;
  return ref;
}

/**
 * The collection to list while discovery is still on its way: the default kind's (ConfigMaps, core v1, which
 * every server serves) when the route names that kind or none, so that the first screen's list goes beside
 * discovery instead of after it. Once discovery answers, the chosen collection is the same one (the list
 * goes on) or, on a server without it, another (the list starts again).
 */
export function assumedDefaultCollection(
  param: string | undefined,
  namespace: string,
): ResourceRef | undefined {
  if (param !== undefined && param !== 'v1/configmaps') return undefined;
  return { group: '', version: 'v1', resource: 'configmaps', namespace };
}

/** Config maps if served (the simplest object to play with), else the first listable resource. */
export function defaultChoice(groupVersions: DiscoveredGroupVersion[]): ResourceChoice | undefined {
  // A walk without copies: the explorer asks on every render, over every served resource.
  let first: ResourceChoice | undefined;
  for (const gv of groupVersions)
    for (const resource of gv.resources) {
      if (!resource.verbs.includes('list')) continue;
      if (gv.group === '' && resource.name === 'configmaps')
        return { group: gv.group, version: gv.version, groupVersion: gv.groupVersion, resource };
      first ??= { group: gv.group, version: gv.version, groupVersion: gv.groupVersion, resource };
    }
  return first;
}

/** The route parameter naming a kind: `v1/configmaps`, `apps/v1/deployments`. */
export function choiceParam(choice: ResourceChoice): string {
  return `${choice.groupVersion}/${choice.resource.name}`;
}

/** The kind a route parameter names, if the server serves it. */
export function choiceFromParam(
  groupVersions: DiscoveredGroupVersion[],
  param: string | undefined,
): ResourceChoice | undefined {
  if (param === undefined) return undefined;
  const slash = param.lastIndexOf('/');
  const groupVersion = param.slice(0, slash);
  const name = param.slice(slash + 1);
  const gv = groupVersions.find((g) => g.groupVersion === groupVersion);
  const resource = gv?.resources.find((r) => r.name === name);
  if (gv === undefined || resource === undefined) return undefined;
  return { group: gv.group, version: gv.version, groupVersion: gv.groupVersion, resource };
}

/** The kind of an object (`apiVersion` and `kind`), as discovery serves it. */
export function choiceForKind(
  groupVersions: DiscoveredGroupVersion[],
  apiVersion: string | undefined,
  kind: string | undefined,
): ResourceChoice | undefined {
  const gv = groupVersions.find((g) => g.groupVersion === apiVersion);
  const resource = gv?.resources.find((r) => r.kind === kind);
  if (gv === undefined || resource === undefined) return undefined;
  return { group: gv.group, version: gv.version, groupVersion: gv.groupVersion, resource };
}

/** Every listable kind, preferred versions first. */
export function listableChoices(groupVersions: DiscoveredGroupVersion[]): ResourceChoice[] {
  return groupVersions.flatMap((gv) =>
    gv.resources
      .filter((resource) => resource.verbs.includes('list'))
      .map((resource) => ({ group: gv.group, version: gv.version, groupVersion: gv.groupVersion, resource })),
  );
}
