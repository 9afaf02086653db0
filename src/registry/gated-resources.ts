/**
 * Which built-in resources a v1.27 server installs only while a feature
 * gate is on (on top of `--runtime-config` enabling their version), and the
 * group/versions v1.27 still knows but serves nothing in: enabling one of
 * those starts the server with `Skipping API <gv> because it has no
 * resources.` instead of an error.
 */

/** `<group without suffix>/<resource>` → the gate its storage needs. */
const resourceGates: Readonly<Record<string, string>> = {
  'authentication/selfsubjectreviews': 'APISelfSubjectReview',
  'admissionregistration/validatingadmissionpolicies': 'ValidatingAdmissionPolicy',
  'admissionregistration/validatingadmissionpolicybindings': 'ValidatingAdmissionPolicy',
  'certificates/clustertrustbundles': 'ClusterTrustBundle',
  'networking/clustercidrs': 'MultiCIDRRangeAllocator',
  'networking/ipaddresses': 'MultiCIDRServiceAllocator',
};

/** The gate a built-in resource's storage needs, if any (`group` as in the generated registry, unsuffixed). */
export function resourceGate(group: string, resource: string): string | undefined {
  return resourceGates[`${group}/${resource.split('/')[0] ?? resource}`];
}

/**
 * Group/versions in the v1.27 scheme with no resources served (removed
 * betas and alphas), by unsuffixed group name; `suffixed` as the profile
 * spells the group (`events` → `events.<suffix>`).
 */
export const emptyGroupVersions: readonly { group: string; suffixed: boolean; version: string }[] = [
  ...['v1beta1', 'v1beta2'].map((version) => ({ group: 'apps', suffixed: false, version })),
  ...['v2beta1', 'v2beta2'].map((version) => ({ group: 'autoscaling', suffixed: false, version })),
  { group: 'batch', suffixed: false, version: 'v1beta1' },
  { group: 'extensions', suffixed: false, version: 'v1beta1' },
  { group: 'policy', suffixed: false, version: 'v1beta1' },
  { group: 'admissionregistration', suffixed: true, version: 'v1beta1' },
  { group: 'apiextensions', suffixed: true, version: 'v1beta1' },
  { group: 'apiregistration', suffixed: true, version: 'v1beta1' },
  { group: 'authorization', suffixed: true, version: 'v1beta1' },
  { group: 'certificates', suffixed: true, version: 'v1beta1' },
  { group: 'coordination', suffixed: true, version: 'v1beta1' },
  { group: 'discovery', suffixed: true, version: 'v1beta1' },
  { group: 'events', suffixed: true, version: 'v1beta1' },
  ...['v1alpha1', 'v1beta1'].map((version) => ({ group: 'flowcontrol.apiserver', suffixed: true, version })),
  { group: 'networking', suffixed: true, version: 'v1beta1' },
  ...['v1alpha1', 'v1beta1'].map((version) => ({ group: 'node', suffixed: true, version })),
  ...['v1alpha1', 'v1beta1'].map((version) => ({ group: 'rbac.authorization', suffixed: true, version })),
  ...['v1alpha1', 'v1beta1'].map((version) => ({ group: 'scheduling', suffixed: true, version })),
  ...['v1alpha1', 'v1beta1'].map((version) => ({ group: 'storage', suffixed: true, version })),
];
