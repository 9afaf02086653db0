/**
 * Names and status conditions of CustomResourceDefinitions that the server
 * and its controllers share: the CRD group and cleanup finalizer spelled by
 * the naming profile, the API-approval annotation and the groups that need
 * it, and reading and setting conditions the way the real server's
 * SetCRDCondition does.
 */

import type { CrdCondition, CustomResourceDefinition } from '../api/crd';
import type { KubeObject } from '../api/meta';
import type { NamingProfile } from './naming';

export const CRD_RESOURCE = 'customresourcedefinitions';

/** The group CRDs are served in, e.g. `apiextensions.orch.io`. */
export function crdGroup(profile: NamingProfile): string {
  return profile.suffixed('apiextensions');
}

/** The finalizer that makes deleting a CRD delete its objects first (`customresourcecleanup.apiextensions.<suffix>`). */
export function cleanupFinalizer(profile: NamingProfile): string {
  return profile.suffixed('customresourcecleanup.apiextensions');
}

/** The annotation a CRD in a protected group must carry (`api-approved.<label domain>`). */
export function approvalAnnotation(profile: NamingProfile): string {
  return `api-approved.${profile.labelDomain}`;
}

/** Groups owned by the product's community, which need API approval (`<suffix>`, `*.<suffix>`, and the label domain). */
export function isProtectedGroup(profile: NamingProfile, group: string): boolean {
  return [profile.groupSuffix, profile.labelDomain].some((d) => group === d || group.endsWith(`.${d}`));
}

export function asCrd(obj: KubeObject): CustomResourceDefinition {
  return obj as CustomResourceDefinition;
}

export function findCondition(crd: CustomResourceDefinition, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  return findCondition(crd, type)?.status === 'True';
}

/**
 * Sets a condition as the real server's SetCRDCondition does: the transition
 * time moves only when the status changes; reason and message always update.
 */
export function setCondition(conditions: CrdCondition[], next: CrdCondition, now: string): CrdCondition[] {
  const old = conditions.find((c) => c.type === next.type);
  if (old === undefined)
    return [...conditions, { ...next, lastTransitionTime: next.lastTransitionTime ?? now }];
  return conditions.map((c) =>
    c.type !== next.type
      ? c
      : {
          ...next,
          lastTransitionTime: c.status === next.status ? (c.lastTransitionTime ?? now) : now,
        },
  );
}
