/**
 * The objects of one namespace (every listable namespaced kind, plus the
 * namespace itself) as YAML manifests without server-set fields, ready to
 * become a scenario. Kinds the server fills in for itself (events, the
 * service account token controller's objects) are left out.
 */

import type { KubeObject } from '../../api/meta';
import type { ApiClient, DiscoveredGroupVersion } from '../../client/index';
import { listableChoices } from '../lib/resource-choice';
import { toYaml, withoutServerFields } from '../lib/yaml-text';

const skipped = new Set(['events', 'endpoints', 'endpointslices', 'controllerrevisions', 'leases']);

export async function captureNamespace(
  client: ApiClient,
  groupVersions: DiscoveredGroupVersion[],
  namespace: string,
): Promise<string> {
  const kinds = listableChoices(groupVersions).filter(
    (c) =>
      c.resource.namespaced &&
      !skipped.has(c.resource.name) &&
      c.resource.verbs.includes('create') &&
      (groupVersions.find((g) => g.groupVersion === c.groupVersion)?.preferred ?? false),
  );
  const objects: KubeObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }];
  const lists = await Promise.all(
    kinds.map((c) =>
      client
        .list({ group: c.group, version: c.version, resource: c.resource.name, namespace })
        .then((list) =>
          list.items.map((item) => ({ ...item, apiVersion: c.groupVersion, kind: c.resource.kind })),
        )
        .catch(() => [] as KubeObject[]),
    ),
  );
  for (const items of lists) for (const item of items) objects.push(withoutServerFields(item));
  return objects.map((o) => toYaml(o)).join('---\n');
}
