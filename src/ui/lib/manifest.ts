/**
 * Turning the text of the create panel or the editor into a request: parse
 * YAML or JSON (YAML is a superset of JSON, so one parser reads both), then
 * find the collection to write to from the object's apiVersion and kind via
 * discovery. Loaded on demand: it pulls in the YAML parser.
 */

import { parseYaml } from './yaml-text';
import type { KubeObject } from '../../api/meta';
import { parseApiVersion, type DiscoveredGroupVersion, type ResourceRef } from '../../client/index';

export function parseManifest(text: string): KubeObject {
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (error) {
    throw new Error(
      `The text is neither YAML nor JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('Expected one object with apiVersion, kind and metadata.');
  }
  const object = value as KubeObject;
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new Error('The object needs string fields apiVersion and kind.');
  }
  return object;
}

/** The collection an object is created in: its kind's resource, in its own namespace or else `fallbackNamespace`. */
export function collectionFor(
  object: KubeObject,
  groupVersions: DiscoveredGroupVersion[],
  fallbackNamespace: string,
): ResourceRef {
  const apiVersion = object.apiVersion ?? '';
  const { group, version } = parseApiVersion(apiVersion);
  const served = groupVersions.find((gv) => gv.group === group && gv.version === version);
  if (served === undefined) throw new Error(`The server does not serve apiVersion ${apiVersion}.`);
  const resource = served.resources.find((r) => r.kind === object.kind);
  if (resource === undefined) throw new Error(`apiVersion ${apiVersion} has no kind ${String(object.kind)}.`);
  const ref: ResourceRef = { group, version, resource: resource.name };
  if (resource.namespaced) ref.namespace = object.metadata?.namespace ?? fallbackNamespace;
  return ref;
}

/** The object path of `object` (its collection plus its name); throws when it has no name. */
export function objectRefFor(
  object: KubeObject,
  groupVersions: DiscoveredGroupVersion[],
  fallbackNamespace: string,
): ResourceRef & { name: string } {
  const name = object.metadata?.name;
  if (name === undefined || name === '') throw new Error('The object needs metadata.name.');
  return { ...collectionFor(object, groupVersions, fallbackNamespace), name };
}
