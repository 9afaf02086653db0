/**
 * A stand-in for what the server hands the pod scheduling plugins, for
 * their unit tests: listers over fixed objects, a namespace lister, a client
 * that records creates, and the default flags. Only what those plugins read
 * is real; the rest throws if touched.
 */

import type { KubeObject } from '../../api/meta';
import { namingProfile } from '../../machinery/naming';
import type { Lister } from '../../registry/cache/types';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../types';

export interface FakeDepsOptions {
  objects?: Record<string, KubeObject[]>;
  namespaces?: KubeObject[];
  config?: unknown;
}

function listerOver(objects: readonly KubeObject[]): Lister {
  return {
    get: (namespace, name) =>
      objects.find((o) => (o.metadata?.namespace ?? '') === namespace && o.metadata?.name === name),
    list: (namespace) =>
      namespace === undefined ? [...objects] : objects.filter((o) => o.metadata?.namespace === namespace),
    byIndex: () => {
      throw new Error('no index');
    },
  };
}

export function fakeDeps(o: FakeDepsOptions = {}): AdmissionPluginDeps & { created: KubeObject[] } {
  const created: KubeObject[] = [];
  const unused = () => {
    throw new Error('not used by these plugins');
  };
  const deps = {
    profile: namingProfile('orch'),
    featureGates: {},
    now: () => new Date(0),
    ...(o.config !== undefined ? { config: o.config } : {}),
    lister: (group: string, resource: string) => listerOver(o.objects?.[`${group}/${resource}`] ?? []),
    listersSynced: () => Promise.resolve(),
    namespaces: {
      get: (name: string) => Promise.resolve((o.namespaces ?? []).find((n) => n.metadata?.name === name)),
    },
    client: {
      get: () => Promise.resolve(undefined),
      create: (_g: string, _r: string, object: KubeObject) => {
        created.push(object);
        return Promise.resolve(object);
      },
      update: unused,
    },
    flags: { defaultNotReadyTolerationSeconds: 300, defaultUnreachableTolerationSeconds: 300 },
    loadFile: unused,
    created,
  };
  return deps as unknown as AdmissionPluginDeps & { created: KubeObject[] };
}

/** Attributes of a write of `object` (a pod in `default` unless told otherwise). */
export function podAttributes(
  object: KubeObject,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group: '',
    version: 'v1',
    kind: 'Pod',
    resource: 'pods',
    subresource: '',
    namespace: 'default',
    name: object.metadata?.name ?? '',
    object,
    user: { username: 'alice', groups: ['system:authenticated'] },
    dryRun: false,
    ...over,
  };
}
