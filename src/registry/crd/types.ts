/**
 * The CRD kind as the registry sees it: the wire types and shared names
 * (re-exported from `api/crd` and `machinery/crd`), the definition that
 * identifies the kind, and the version-name rules discovery orders CRD
 * versions by.
 */

export type * from '../../api/crd';
export {
  CRD_RESOURCE,
  approvalAnnotation,
  asCrd,
  cleanupFinalizer,
  crdGroup,
  findCondition,
  isConditionTrue,
  isProtectedGroup,
  setCondition,
} from '../../machinery/crd';

export const CRD_DEFINITION = 'apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition';

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
