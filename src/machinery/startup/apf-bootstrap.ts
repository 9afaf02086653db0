/**
 * The API Priority and Fairness configuration a v1.27 server keeps from its
 * start (flowcontrol v1beta3): the mandatory `exempt` and `catch-all`
 * objects and the suggested ones, named and subject-spelled under the
 * profile, with every field as the server stores it after defaulting; and
 * the plan that keeps them as the real config ensurer does. Mandatory
 * objects are created when missing and their spec put back whenever it
 * differs; suggested objects are created when missing and brought up to
 * date only while `autoupdate-spec` says true (or, lacking a boolean, while
 * the object was never changed: generation 1); an object that carries
 * `autoupdate-spec: "true"` but is no longer part of the configuration is
 * deleted.
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../naming';
import { deepEqual } from '../json';

export type ApfKind = 'FlowSchema' | 'PriorityLevelConfiguration';

export interface ApfConfiguration {
  mandatory: KubeObject[];
  suggested: KubeObject[];
}

/** `apf.kubernetes.io/autoupdate-spec` under the profile. */
export function apfAutoUpdateAnnotation(profile: NamingProfile): string {
  return profile.subPrefixed('apf', 'autoupdate-spec');
}

export function apfApiVersion(profile: NamingProfile): string {
  return `${profile.suffixed('flowcontrol.apiserver')}/v1beta3`;
}

type Subject = Record<string, unknown>;
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });

const allResources = {
  verbs: ['*'],
  apiGroups: ['*'],
  resources: ['*'],
  clusterScope: true,
  namespaces: ['*'],
};
const allNonResources = { verbs: ['*'], nonResourceURLs: ['*'] };

/** A rule over resources; `clusterScope: false` is left out, as the real server's JSON omits it. */
function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  namespaces: string[],
  clusterScope: boolean,
): Record<string, unknown> {
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces };
}

function limited(
  shares: number,
  lendablePercent: number,
  queuing?: { queues: number; handSize: number; queueLengthLimit: number },
): Record<string, unknown> {
  return {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent,
      limitResponse: queuing === undefined ? { type: 'Reject' } : { type: 'Queue', queuing },
    },
  };
}

export function apfPriorityLevels(profile: NamingProfile): ApfConfiguration {
  const pl = (name: string, spec: Record<string, unknown>): KubeObject => ({
    apiVersion: apfApiVersion(profile),
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec,
  });
  return {
    mandatory: [pl('exempt', { type: 'Exempt' }), pl('catch-all', limited(5, 0))],
    suggested: [
      pl('system', limited(30, 33, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
      pl('node-high', limited(40, 25, { queues: 64, handSize: 6, queueLengthLimit: 50 })),
      pl('leader-election', limited(10, 0, { queues: 16, handSize: 4, queueLengthLimit: 50 })),
      pl('workload-high', limited(40, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
      pl('workload-low', limited(100, 90, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
      pl('global-default', limited(20, 50, { queues: 128, handSize: 6, queueLengthLimit: 50 })),
    ],
  };
}

export function apfFlowSchemas(profile: NamingProfile): ApfConfiguration {
  const system = profile.systemNamespace;
  const systemServiceAccounts: Subject = {
    kind: 'ServiceAccount',
    serviceAccount: { name: '*', namespace: system },
  };
  const everyone = [group('system:unauthenticated'), group('system:authenticated')];
  const coordination = profile.suffixed('coordination');
  const fs = (
    name: string,
    priorityLevel: string,
    matchingPrecedence: number,
    distinguisher: 'ByUser' | 'ByNamespace' | undefined,
    rule: Record<string, unknown>,
  ): KubeObject => ({
    apiVersion: apfApiVersion(profile),
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher !== undefined ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rule],
    },
  });
  const everything = (subjects: Subject[]) => ({
    subjects,
    resourceRules: [allResources],
    nonResourceRules: [allNonResources],
  });
  const leaderElection = (subjects: Subject[], configNamespaces: string[]) => ({
    subjects,
    resourceRules: [
      resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], configNamespaces, false),
      resourceRule(['get', 'create', 'update'], [coordination], ['leases'], ['*'], false),
    ],
  });
  return {
    mandatory: [
      fs('exempt', 'exempt', 1, undefined, everything([group('system:masters')])),
      fs('catch-all', 'catch-all', 10000, 'ByUser', everything(everyone)),
    ],
    suggested: [
      fs('system-nodes', 'system', 500, 'ByUser', everything([group('system:nodes')])),
      fs('system-node-high', 'node-high', 400, 'ByUser', {
        subjects: [group('system:nodes')],
        resourceRules: [
          resourceRule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true),
          resourceRule(['*'], [coordination], ['leases'], ['*'], false),
        ],
      }),
      fs('probes', 'exempt', 2, undefined, {
        subjects: everyone,
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      }),
      fs(
        'system-leader-election',
        'leader-election',
        100,
        'ByUser',
        leaderElection(
          [user('system:kube-controller-manager'), user('system:kube-scheduler'), systemServiceAccounts],
          [system],
        ),
      ),
      fs(
        'workload-leader-election',
        'leader-election',
        200,
        'ByUser',
        leaderElection([systemServiceAccounts], ['*']),
      ),
      fs('endpoint-controller', 'workload-high', 150, 'ByUser', {
        subjects: [
          user('system:kube-controller-manager'),
          { kind: 'ServiceAccount', serviceAccount: { name: 'endpoint-controller', namespace: system } },
        ],
        resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], ['*'], false)],
      }),
      fs(
        'kube-controller-manager',
        'workload-high',
        800,
        'ByNamespace',
        everything([user('system:kube-controller-manager')]),
      ),
      fs('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything([user('system:kube-scheduler')])),
      fs(
        `${profile.shortWord}-system-service-accounts`,
        'workload-high',
        900,
        'ByNamespace',
        everything([systemServiceAccounts]),
      ),
      fs('service-accounts', 'workload-low', 9000, 'ByUser', everything([group('system:serviceaccounts')])),
      fs('global-default', 'global-default', 9900, 'ByUser', everything(everyone)),
    ],
  };
}

export type ApfEnsureOp =
  | { op: 'create'; object: KubeObject }
  | { op: 'update'; object: KubeObject }
  | { op: 'delete'; name: string; uid: string; resourceVersion: string };

/** Go's strconv.ParseBool: `undefined` when the text is no boolean. */
function parseGoBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** What to write so that the stored objects of one kind match the configuration. */
export function planApfEnsure(
  configuration: ApfConfiguration,
  existing: readonly KubeObject[],
  profile: NamingProfile,
): ApfEnsureOp[] {
  const key = apfAutoUpdateAnnotation(profile);
  const byName = new Map(existing.map((o) => [o.metadata?.name ?? '', o]));
  const ops: ApfEnsureOp[] = [];
  const wanted = new Set<string>();
  const ensure = (bootstrap: KubeObject, mandatory: boolean): void => {
    const name = bootstrap.metadata?.name ?? '';
    wanted.add(name);
    const current = byName.get(name);
    if (current === undefined) {
      ops.push({
        op: 'create',
        object: { ...bootstrap, metadata: { ...bootstrap.metadata, annotations: { [key]: 'true' } } },
      });
      return;
    }
    const annotations = current.metadata?.annotations ?? {};
    const autoUpdate = mandatory || (parseGoBool(annotations[key]) ?? current.metadata?.generation === 1);
    if (!autoUpdate) return;
    const spec = (bootstrap as { spec?: unknown }).spec;
    if (deepEqual((current as { spec?: unknown }).spec, spec) && annotations[key] === 'true') return;
    ops.push({
      op: 'update',
      object: {
        ...current,
        metadata: { ...current.metadata, annotations: { ...annotations, [key]: 'true' } },
        spec,
      },
    });
  };
  for (const o of configuration.mandatory) ensure(o, true);
  for (const o of configuration.suggested) ensure(o, false);
  for (const o of existing) {
    const name = o.metadata?.name ?? '';
    if (wanted.has(name) || o.metadata?.deletionTimestamp !== undefined) continue;
    if (parseGoBool(o.metadata?.annotations?.[key]) !== true) continue;
    ops.push({
      op: 'delete',
      name,
      uid: o.metadata?.uid ?? '',
      resourceVersion: o.metadata?.resourceVersion ?? '',
    });
  }
  return ops;
}
