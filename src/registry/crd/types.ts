/**
 * The CustomResourceDefinition as it travels on the wire (apiextensions v1
 * JSON), typed loosely enough to read user input that may be wrong, plus
 * the names the CRD machinery spells through the naming profile (cleanup
 * finalizer, API-approval annotation, protected groups) and helpers for the
 * status conditions the controllers and the registrar read.
 */

import type { JsonObject, KubeObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';

export interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CrdScale {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CrdSubresources {
  status?: JsonObject;
  scale?: CrdScale;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JsonObject };
  subresources?: CrdSubresources;
  additionalPrinterColumns?: CrdColumn[];
}

export interface CrdWebhookClientConfig {
  url?: string;
  service?: { namespace?: string; name?: string; path?: string; port?: number };
  caBundle?: string;
}

export interface CrdConversion {
  strategy?: string;
  webhook?: { clientConfig?: CrdWebhookClientConfig; conversionReviewVersions?: string[] };
}

export interface CrdSpec {
  group?: string;
  names?: CrdNames;
  scope?: string;
  versions?: CrdVersion[];
  conversion?: CrdConversion;
  preserveUnknownFields?: boolean;
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export interface CrdStatus {
  acceptedNames?: CrdNames;
  conditions?: CrdCondition[];
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec?: CrdSpec;
  status?: CrdStatus;
}

export const CRD_DEFINITION = 'apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition';
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
  if (old === undefined) return [...conditions, { ...next, lastTransitionTime: next.lastTransitionTime ?? now }];
  return conditions.map((c) =>
    c.type !== next.type
      ? c
      : {
          ...next,
          lastTransitionTime: c.status === next.status ? (c.lastTransitionTime ?? now) : now,
        },
  );
}

/** Kubernetes-aware version order (v1 > v1beta2 > v1beta1 > v1alpha1 > other strings, alphabetically). */
export function compareKubeVersions(a: string, b: string): number {
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (pa === undefined || pb === undefined) {
    if (pa !== undefined) return -1;
    if (pb !== undefined) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const rank = (p: { level: number }) => p.level;
  if (rank(pa) !== rank(pb)) return rank(pb) - rank(pa);
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

function parseKubeVersion(v: string): { major: number; level: number; minor: number } | undefined {
  const m = /^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$/.exec(v);
  if (m === null) return undefined;
  return {
    major: Number(m[1]),
    level: m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1,
    minor: m[3] === undefined ? 0 : Number(m[3]),
  };
}

/** The stability a CRD version's name implies. */
export function stabilityOf(version: string): 'stable' | 'beta' | 'alpha' {
  if (/^v[0-9]+alpha[0-9]+$/.test(version)) return 'alpha';
  if (/^v[0-9]+beta[0-9]+$/.test(version)) return 'beta';
  return 'stable';
}
