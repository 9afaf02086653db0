/**
 * Turning the text of the create panel into a request: parse YAML or JSON
 * (YAML is a superset of JSON, so one parser reads both), then find the
 * collection to POST to from the object's apiVersion and kind via discovery.
 */

import { parse } from 'yaml';
import type { KubeObject } from '../../api/meta';
import { parseApiVersion, type DiscoveredGroupVersion, type ResourceRef } from '../../client/index';
import type { ResourceChoice } from './resource-choice';

export function parseManifest(text: string): KubeObject {
  let value: unknown;
  try {
    value = parse(text);
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

/** A starting point for the chosen kind. */
export function templateFor(choice: ResourceChoice | undefined, namespace: string): string {
  if (choice === undefined || (choice.group === '' && choice.resource.name === 'configmaps')) {
    return [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: example',
      `  namespace: ${namespace}`,
      'data:',
      '  greeting: hello',
      '',
    ].join('\n');
  }
  const lines = [
    `apiVersion: ${choice.groupVersion}`,
    `kind: ${choice.resource.kind}`,
    'metadata:',
    '  name: example',
  ];
  if (choice.resource.namespaced) lines.push(`  namespace: ${namespace}`);
  return `${lines.join('\n')}\n`;
}
