/**
 * The removed API versions of the specification's Versioning table as data,
 * one entry per group/version/kind, with the releases that bound each one's
 * life: when it was first served as beta, when it was deprecated and when it
 * stopped being served (the table gives the last; the first two are the
 * upstream release facts), and when its replacement became available. Groups
 * are written by their base name and resolved through the naming profile,
 * so the same data names `networking.orch.io` or `networking.k8s.io`.
 */

import type { NamingProfile } from '../../machinery/naming';

/** A minor release of v1: 16 is v1.16. */
export type Minor = number;

export const firstRelease: Minor = 16;
export const lastRelease: Minor = 29;
/** The release this server implements. */
export const serverRelease: Minor = 27;

/** A group by base name; `suffixed` ones take the profile's suffix (`storage` → `storage.orch.io`). */
export interface GroupName {
  base: string;
  suffixed: boolean;
}

export interface RemovedApi {
  group: GroupName;
  version: string;
  kind: string;
  /** Plural resource name, as discovery lists it. */
  resource: string;
  /** First release serving this version (0 when before any release this view shows). */
  servedFrom: Minor;
  deprecatedIn: Minor;
  removedIn: Minor;
  /** The group/version to use instead; undefined when the kind itself went away. */
  replacement?: { group: GroupName; version: string; kind: string; since: Minor };
  /** For a kind with no replacement version: what to use. */
  instead?: string;
  /** Notable differences in the replacement, in short sentences. */
  changes: readonly string[];
}

export type ApiState = 'not-yet' | 'served' | 'deprecated' | 'removed';

const core = (base: string): GroupName => ({ base, suffixed: false });
const own = (base: string): GroupName => ({ base, suffixed: true });

const fieldsSame: readonly string[] = [];

type Row = Omit<RemovedApi, 'kind' | 'resource' | 'replacement'> & {
  kinds: readonly (readonly [kind: string, resource: string])[];
  replacement?: { group: GroupName; version: string; since: Minor };
  /** Changes that concern one kind of the row only. */
  changesOf?: Readonly<Record<string, readonly string[]>>;
};

/** One row per old group/version and release, as the table has them; `removedApis` spreads the kinds. */
const rows: readonly Row[] = [
  {
    group: own('flowcontrol.apiserver'),
    version: 'v1beta2',
    kinds: [
      ['FlowSchema', 'flowschemas'],
      ['PriorityLevelConfiguration', 'prioritylevelconfigurations'],
    ],
    servedFrom: 23,
    deprecatedIn: 26,
    removedIn: 29,
    replacement: { group: own('flowcontrol.apiserver'), version: 'v1beta3', since: 26 },
    changes: fieldsSame,
    changesOf: {
      PriorityLevelConfiguration: [
        'spec.limited.assuredConcurrencyShares is now spec.limited.nominalConcurrencyShares.',
      ],
    },
  },
  {
    group: own('storage'),
    version: 'v1beta1',
    kinds: [['CSIStorageCapacity', 'csistoragecapacities']],
    servedFrom: 21,
    deprecatedIn: 24,
    removedIn: 27,
    replacement: { group: own('storage'), version: 'v1', since: 24 },
    changes: fieldsSame,
  },
  {
    group: own('flowcontrol.apiserver'),
    version: 'v1beta1',
    kinds: [
      ['FlowSchema', 'flowschemas'],
      ['PriorityLevelConfiguration', 'prioritylevelconfigurations'],
    ],
    servedFrom: 20,
    deprecatedIn: 23,
    removedIn: 26,
    replacement: { group: own('flowcontrol.apiserver'), version: 'v1beta3', since: 26 },
    changes: fieldsSame,
  },
  {
    group: core('autoscaling'),
    version: 'v2beta2',
    kinds: [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']],
    servedFrom: 12,
    deprecatedIn: 23,
    removedIn: 26,
    replacement: { group: core('autoscaling'), version: 'v2', since: 23 },
    changes: fieldsSame,
  },
  {
    group: core('batch'),
    version: 'v1beta1',
    kinds: [['CronJob', 'cronjobs']],
    servedFrom: 8,
    deprecatedIn: 21,
    removedIn: 25,
    replacement: { group: core('batch'), version: 'v1', since: 21 },
    changes: fieldsSame,
  },
  {
    group: own('discovery'),
    version: 'v1beta1',
    kinds: [['EndpointSlice', 'endpointslices']],
    servedFrom: 17,
    deprecatedIn: 21,
    removedIn: 25,
    replacement: { group: own('discovery'), version: 'v1', since: 21 },
    changes: [
      "Each endpoint has its own nodeName, in place of the topology map's hostname entry.",
      "Each endpoint has its own zone, in place of the topology map's zone entry.",
      'topology survives only as the read-only deprecatedTopology.',
    ],
  },
  {
    group: own('events'),
    version: 'v1beta1',
    kinds: [['Event', 'events']],
    servedFrom: 8,
    deprecatedIn: 22,
    removedIn: 25,
    replacement: { group: own('events'), version: 'v1', since: 19 },
    changes: [
      'type may only be Normal or Warning.',
      'involvedObject is called regarding.',
      'A new event must set action, reason, reportingController and reportingInstance.',
      'eventTime takes the place of firstTimestamp (kept as deprecatedFirstTimestamp, refused on new events).',
      'series.lastObservedTime and series.count take the places of lastTimestamp and count (deprecatedLastTimestamp, deprecatedCount).',
      'reportingController and reportingInstance take the places of source.component and source.host (deprecatedSource).',
    ],
  },
  {
    group: core('autoscaling'),
    version: 'v2beta1',
    kinds: [['HorizontalPodAutoscaler', 'horizontalpodautoscalers']],
    servedFrom: 8,
    deprecatedIn: 22,
    removedIn: 25,
    replacement: { group: core('autoscaling'), version: 'v2', since: 23 },
    changes: fieldsSame,
  },
  {
    group: core('policy'),
    version: 'v1beta1',
    kinds: [['PodDisruptionBudget', 'poddisruptionbudgets']],
    servedFrom: 5,
    deprecatedIn: 22,
    removedIn: 25,
    replacement: { group: core('policy'), version: 'v1', since: 21 },
    changes: [
      'An empty spec.selector ({}) now selects every pod of the namespace; in v1beta1 it selected none. An unset selector still selects none.',
    ],
  },
  {
    group: core('policy'),
    version: 'v1beta1',
    kinds: [['PodSecurityPolicy', 'podsecuritypolicies']],
    servedFrom: 10,
    deprecatedIn: 21,
    removedIn: 25,
    instead: 'Pod Security admission, or an admission webhook',
    changes: ['The kind is gone, together with its admission plugin; nothing converts the objects.'],
  },
  {
    group: own('node'),
    version: 'v1beta1',
    kinds: [['RuntimeClass', 'runtimeclasses']],
    servedFrom: 14,
    deprecatedIn: 22,
    removedIn: 25,
    replacement: { group: own('node'), version: 'v1', since: 20 },
    changes: fieldsSame,
  },
  {
    group: own('admissionregistration'),
    version: 'v1beta1',
    kinds: [
      ['MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'],
      ['ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'],
    ],
    servedFrom: 9,
    deprecatedIn: 19,
    removedIn: 22,
    replacement: { group: own('admissionregistration'), version: 'v1', since: 16 },
    changes: ['Further changes exist; the specification does not list them.'],
  },
  {
    group: own('certificates'),
    version: 'v1beta1',
    kinds: [['CertificateSigningRequest', 'certificatesigningrequests']],
    servedFrom: 12,
    deprecatedIn: 19,
    removedIn: 22,
    replacement: { group: own('certificates'), version: 'v1', since: 19 },
    changes: [
      'spec.signerName is required, and the legacy-unknown signer cannot be requested through v1.',
      'spec.usages is required, with known values only and no repeats.',
      'status.conditions may not repeat a type; status is required.',
      'status.certificate must be PEM holding only CERTIFICATE blocks.',
    ],
  },
  {
    group: own('coordination'),
    version: 'v1beta1',
    kinds: [['Lease', 'leases']],
    servedFrom: 12,
    deprecatedIn: 19,
    removedIn: 22,
    replacement: { group: own('coordination'), version: 'v1', since: 14 },
    changes: fieldsSame,
  },
  ...(['extensions', 'networking'] as const).map((base): Row => ({
    group: base === 'extensions' ? core('extensions') : own('networking'),
    version: 'v1beta1',
    kinds: [['Ingress', 'ingresses']],
    servedFrom: base === 'extensions' ? 1 : 14,
    deprecatedIn: base === 'extensions' ? 14 : 19,
    removedIn: 22,
    replacement: { group: own('networking'), version: 'v1', since: 19 },
    changes: [
      'spec.backend is called spec.defaultBackend.',
      'A backend names its Service as service.name (was serviceName).',
      'A numeric servicePort is service.port.number; a named one is service.port.name.',
      'Every path needs a pathType (Prefix, Exact or ImplementationSpecific); ImplementationSpecific keeps the v1beta1 matching.',
    ],
  })),
  {
    group: own('networking'),
    version: 'v1beta1',
    kinds: [['IngressClass', 'ingressclasses']],
    servedFrom: 18,
    deprecatedIn: 19,
    removedIn: 22,
    replacement: { group: own('networking'), version: 'v1', since: 19 },
    changes: fieldsSame,
  },
  {
    group: own('rbac.authorization'),
    version: 'v1beta1',
    kinds: [
      ['ClusterRole', 'clusterroles'],
      ['ClusterRoleBinding', 'clusterrolebindings'],
      ['Role', 'roles'],
      ['RoleBinding', 'rolebindings'],
    ],
    servedFrom: 6,
    deprecatedIn: 17,
    removedIn: 22,
    replacement: { group: own('rbac.authorization'), version: 'v1', since: 8 },
    changes: fieldsSame,
  },
  {
    group: own('scheduling'),
    version: 'v1beta1',
    kinds: [['PriorityClass', 'priorityclasses']],
    servedFrom: 11,
    deprecatedIn: 14,
    removedIn: 22,
    replacement: { group: own('scheduling'), version: 'v1', since: 14 },
    changes: fieldsSame,
  },
  ...(
    [
      ['CSIDriver', 'csidrivers', 14, 19, 18],
      ['CSINode', 'csinodes', 14, 17, 17],
      ['StorageClass', 'storageclasses', 6, 19, 6],
      ['VolumeAttachment', 'volumeattachments', 10, 19, 13],
    ] as const
  ).map(([kind, resource, servedFrom, deprecatedIn, since]): Row => ({
    group: own('storage'),
    version: 'v1beta1',
    kinds: [[kind, resource]],
    servedFrom,
    deprecatedIn,
    removedIn: 22,
    replacement: { group: own('storage'), version: 'v1', since },
    changes: fieldsSame,
  })),
  {
    group: core('extensions'),
    version: 'v1beta1',
    kinds: [['NetworkPolicy', 'networkpolicies']],
    servedFrom: 3,
    deprecatedIn: 9,
    removedIn: 16,
    replacement: { group: own('networking'), version: 'v1', since: 7 },
    changes: fieldsSame,
  },
  ...workloadRows(),
  {
    group: core('extensions'),
    version: 'v1beta1',
    kinds: [['PodSecurityPolicy', 'podsecuritypolicies']],
    servedFrom: 3,
    deprecatedIn: 11,
    removedIn: 16,
    replacement: { group: core('policy'), version: 'v1beta1', since: 10 },
    changes: ['The replacement is itself removed in v1.25.'],
  },
];

/** The v1.16 removals of the workload kinds from extensions/v1beta1, apps/v1beta1 and apps/v1beta2. */
function workloadRows(): Row[] {
  const selector = 'spec.selector is required and cannot change.';
  const kinds: [kind: string, resource: string, versions: string[], changes: string[]][] = [
    [
      'DaemonSet',
      'daemonsets',
      ['extensions/v1beta1', 'apps/v1beta2'],
      [
        'spec.templateGeneration is gone.',
        selector,
        'spec.updateStrategy.type defaults to RollingUpdate (it was OnDelete).',
      ],
    ],
    [
      'Deployment',
      'deployments',
      ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'],
      [
        'spec.rollbackTo is gone.',
        selector,
        'Defaults: progressDeadlineSeconds 600, revisionHistoryLimit 10, maxSurge and maxUnavailable 25%.',
      ],
    ],
    [
      'StatefulSet',
      'statefulsets',
      ['apps/v1beta1', 'apps/v1beta2'],
      [selector, 'spec.updateStrategy.type defaults to RollingUpdate.'],
    ],
    ['ReplicaSet', 'replicasets', ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2'], [selector]],
  ];
  // First served and deprecated: extensions/v1beta1 from v1.2 (deprecated v1.8), apps/v1beta1 from v1.5
  // (deprecated v1.8), apps/v1beta2 from v1.8 (deprecated v1.9, when apps/v1 arrived).
  const life: Record<string, { servedFrom: Minor; deprecatedIn: Minor }> = {
    'extensions/v1beta1': { servedFrom: 2, deprecatedIn: 8 },
    'apps/v1beta1': { servedFrom: 5, deprecatedIn: 8 },
    'apps/v1beta2': { servedFrom: 8, deprecatedIn: 9 },
  };
  return kinds.flatMap(([kind, resource, versions, changes]) =>
    versions.map((gv): Row => {
      const [base = '', version = ''] = gv.split('/');
      const { servedFrom, deprecatedIn } = life[gv] ?? { servedFrom: 0, deprecatedIn: 0 };
      return {
        group: core(base),
        version,
        kinds: [[kind, resource]],
        servedFrom,
        deprecatedIn,
        removedIn: 16,
        replacement: { group: core('apps'), version: 'v1', since: 9 },
        changes,
      };
    }),
  );
}

/** Every group/version/kind of the table, newest removal first, as the table orders them. */
export const removedApis: readonly RemovedApi[] = rows.flatMap((row) =>
  row.kinds.map(([kind, resource]): RemovedApi => {
    const { kinds: _kinds, replacement, changesOf, ...rest } = row;
    const entry: RemovedApi = { ...rest, kind, resource, changes: changesOf?.[kind] ?? row.changes };
    if (replacement !== undefined) entry.replacement = { ...replacement, kind };
    return entry;
  }),
);

/** What a release does with an API version. */
export function stateAt(api: RemovedApi, release: Minor): ApiState {
  if (release >= api.removedIn) return 'removed';
  if (release >= api.deprecatedIn) return 'deprecated';
  if (release >= api.servedFrom) return 'served';
  return 'not-yet';
}

export function groupName(group: GroupName, profile: NamingProfile): string {
  return group.suffixed ? profile.suffixed(group.base) : group.base;
}

/** `networking.orch.io/v1beta1` (the core group's versions are bare). */
export function groupVersion(group: GroupName, version: string, profile: NamingProfile): string {
  const name = groupName(group, profile);
  return name === '' ? version : `${name}/${version}`;
}

export function releaseLabel(release: Minor): string {
  return `v1.${release}`;
}

export const stateText: Readonly<Record<ApiState, string>> = {
  'not-yet': 'Not yet served',
  served: 'Served',
  deprecated: 'Deprecated',
  removed: 'Removed',
};

/** Counts by state at a release, for the summary line. */
export function countsAt(release: Minor): Record<ApiState, number> {
  const counts: Record<ApiState, number> = { 'not-yet': 0, served: 0, deprecated: 0, removed: 0 };
  for (const api of removedApis) counts[stateAt(api, release)]++;
  return counts;
}
