/**
 * Stand-ins for what the server hands admission plugins, shared by their
 * unit tests: deps with listers over fixed objects (keyed `group/resource`),
 * a namespace lister, a client that records creates, the default flags and
 * optionally a profile, clock, files and webhook transport; attributes of a
 * pod write; recorders for warnings and audit annotations. Only what the
 * plugins read is real; the rest throws if touched.
 */

import type { KubeObject } from '../../../api/meta';
import { namingProfile, type NamingProfile } from '../../../machinery/naming';
import type { Lister } from '../../../machinery/lister';
import type { AdmissionAttributes, AdmissionPluginDeps } from '../../types';
import type { WebhookTransport } from '../../webhook-transport';

export interface FakeDepsOptions {
  objects?: Record<string, KubeObject[]>;
  namespaces?: KubeObject[];
  config?: unknown;
  profile?: NamingProfile;
  now?: () => Date;
  loadFile?: (path: string) => string;
  transport?: WebhookTransport;
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
    profile: o.profile ?? namingProfile('orch'),
    featureGates: {},
    now: o.now ?? (() => new Date(0)),
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
    loadFile: o.loadFile ?? unused,
    ...(o.transport !== undefined ? { transport: o.transport } : {}),
    created,
  };
  return deps as unknown as AdmissionPluginDeps & { created: KubeObject[] };
}

/** Attributes of a write of `object` (a pod in `default` unless told otherwise; no object: one told in `over`). */
export function podAttributes(
  object: KubeObject | undefined,
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
    name: object?.metadata?.name ?? '',
    ...(object !== undefined ? { object } : {}),
    user: { username: 'alice', groups: ['system:authenticated'] },
    dryRun: false,
    ...over,
  };
}

type Warnings = NonNullable<AdmissionAttributes['warnings']>;
type Annotations = NonNullable<AdmissionAttributes['annotations']>;

/** Records warnings (the real recorder belongs to the registry layer). */
export function recordingWarnings(): { warnings: Warnings; seen: string[] } {
  const seen: string[] = [];
  const warnings = { add: (w: string) => void seen.push(w) } as unknown as Warnings;
  return { warnings, seen };
}

/** Records audit annotations and the level each was added at. */
export function recordingAnnotations(): {
  annotations: Annotations;
  seen: Map<string, string>;
  levels: Map<string, string>;
} {
  const seen = new Map<string, string>();
  const levels = new Map<string, string>();
  const annotations = {
    add: (key: string, value: string, level: string) => {
      seen.set(key, value);
      levels.set(key, level);
    },
  } as unknown as Annotations;
  return { annotations, seen, levels };
}
