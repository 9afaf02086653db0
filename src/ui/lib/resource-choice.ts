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

/** Config maps if served (the simplest object to play with), else the first listable resource. */
export function defaultChoice(groupVersions: DiscoveredGroupVersion[]): ResourceChoice | undefined {
  const choices = groupVersions.flatMap((gv) =>
    gv.resources
      .filter((resource) => resource.verbs.includes('list'))
      .map((resource) => ({ group: gv.group, version: gv.version, groupVersion: gv.groupVersion, resource })),
  );
  return choices.find((c) => c.group === '' && c.resource.name === 'configmaps') ?? choices[0];
}
