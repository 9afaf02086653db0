/**
 * The APIService objects the aggregator's autoregister controller keeps for
 * the group/versions the server itself serves: one per served built-in
 * group/version (named `<version>.<group>`, `v1.` for the core group) with
 * the group and version priorities of the v1.27 master table, no service
 * (local) and the `automanaged: onstart` label; a group/version missing from
 * the table is skipped, as upstream skips it. Custom resource group/versions
 * get `automanaged: true` ones with priorities derived from their CRD.
 */

import type { KubeObject } from '../../api/meta';
import type { NamingProfile } from '../naming';

interface Priority {
  group: number;
  version: number;
}

/** Upstream's table, by base group name (`suffixed` groups take the profile's suffix). */
const table: readonly { group: string; suffixed: boolean; version: string; priority: Priority }[] = [
  ['', false, 'v1', 18000, 1],
  ['apps', false, 'v1', 17800, 15],
  ['events', true, 'v1', 17750, 15],
  ['events', true, 'v1beta1', 17750, 5],
  ['authentication', true, 'v1', 17700, 15],
  ['authentication', true, 'v1beta1', 17700, 9],
  ['authentication', true, 'v1alpha1', 17700, 1],
  ['authorization', true, 'v1', 17600, 15],
  ['autoscaling', false, 'v1', 17500, 15],
  ['autoscaling', false, 'v2', 17500, 30],
  ['autoscaling', false, 'v2beta1', 17500, 9],
  ['autoscaling', false, 'v2beta2', 17500, 1],
  ['batch', false, 'v1', 17400, 15],
  ['batch', false, 'v1beta1', 17400, 9],
  ['batch', false, 'v2alpha1', 17400, 9],
  ['certificates', true, 'v1', 17300, 15],
  ['certificates', true, 'v1alpha1', 17300, 1],
  ['networking', true, 'v1', 17200, 15],
  ['networking', true, 'v1alpha1', 17200, 1],
  ['policy', false, 'v1', 17100, 15],
  ['policy', false, 'v1beta1', 17100, 9],
  ['rbac.authorization', true, 'v1', 17000, 15],
  ['storage', true, 'v1', 16800, 15],
  ['storage', true, 'v1beta1', 16800, 9],
  ['storage', true, 'v1alpha1', 16800, 1],
  ['apiextensions', true, 'v1', 16700, 15],
  ['admissionregistration', true, 'v1', 16700, 15],
  ['admissionregistration', true, 'v1beta1', 16700, 12],
  ['admissionregistration', true, 'v1alpha1', 16700, 9],
  ['scheduling', true, 'v1', 16600, 15],
  ['coordination', true, 'v1', 16500, 15],
  ['node', true, 'v1', 16300, 15],
  ['node', true, 'v1alpha1', 16300, 1],
  ['node', true, 'v1beta1', 16300, 9],
  ['discovery', true, 'v1', 16200, 15],
  ['discovery', true, 'v1beta1', 16200, 12],
  ['flowcontrol.apiserver', true, 'v1beta3', 16100, 18],
  ['flowcontrol.apiserver', true, 'v1beta2', 16100, 15],
  ['flowcontrol.apiserver', true, 'v1beta1', 16100, 12],
  ['flowcontrol.apiserver', true, 'v1alpha1', 16100, 9],
  ['internal.apiserver', true, 'v1alpha1', 16000, 9],
  ['resource', true, 'v1alpha2', 15900, 9],
].map(([group, suffixed, version, g, v]) => ({
  group: group as string,
  suffixed: suffixed as boolean,
  version: version as string,
  priority: { group: g as number, version: v as number },
}));

export function apiServiceApiVersion(profile: NamingProfile): string {
  return `${profile.suffixed('apiregistration')}/v1`;
}

/** `kube-aggregator.kubernetes.io/automanaged` under the profile. */
export function automanagedLabel(profile: NamingProfile): string {
  return profile.subPrefixed('kube-aggregator', 'automanaged');
}

export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** The table's priority of a built-in group/version under the profile, if it has one. */
export function builtInApiServicePriority(
  profile: NamingProfile,
  group: string,
  version: string,
): Priority | undefined {
  return table.find(
    (e) => (e.suffixed ? profile.suffixed(e.group) : e.group) === group && e.version === version,
  )?.priority;
}

export function apiServiceObject(
  profile: NamingProfile,
  group: string,
  version: string,
  priority: Priority,
  managed: 'onstart' | 'true',
): KubeObject {
  return {
    apiVersion: apiServiceApiVersion(profile),
    kind: 'APIService',
    metadata: { name: apiServiceName(group, version), labels: { [automanagedLabel(profile)]: managed } },
    spec: {
      service: null,
      group,
      version,
      groupPriorityMinimum: priority.group,
      versionPriority: priority.version,
    },
  };
}

/**
 * The APIServices of the built-in group/versions served (core first), leaving out apiregistration's own,
 * which the aggregator serves itself.
 */
export function builtInApiServices(
  profile: NamingProfile,
  served: readonly { group: string; version: string }[],
): KubeObject[] {
  const out: KubeObject[] = [];
  for (const { group, version } of served) {
    if (group === profile.suffixed('apiregistration')) continue;
    const priority = builtInApiServicePriority(profile, group, version);
    if (priority !== undefined) out.push(apiServiceObject(profile, group, version, priority, 'onstart'));
  }
  return out;
}

/** The Available condition the availability controller gives a local APIService. */
export function localAvailableCondition(now: Date): Record<string, string> {
  return {
    type: 'Available',
    status: 'True',
    lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'),
    reason: 'Local',
    message: 'Local APIServices are always available',
  };
}
