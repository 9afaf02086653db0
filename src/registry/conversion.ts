/**
 * Conversion between the versions of a resource. Each resource is stored in
 * one version (its group's preferred version; Events in the core group's);
 * requests in another version are converted on the way in and out, so an
 * object created through one version reads back through every other without
 * losing information (the spec's deprecation rule 2). Families of versions
 * whose fields differ convert through a hub version; all others differ
 * only in apiVersion.
 */

import type { KubeObject } from '../api/meta';

/** One non-hub version of a family and its two conversions. */
export interface Spoke {
  apiVersion: string;
  toHub(obj: KubeObject): KubeObject;
  fromHub(obj: KubeObject): KubeObject;
}

export interface ConversionFamily {
  hubApiVersion: string;
  spokes: readonly Spoke[];
}

/** The object in `apiVersion`/`kind`, converting through the family's hub when there is one. */
export function convertObject(
  obj: KubeObject,
  apiVersion: string,
  kind: string,
  family: ConversionFamily | undefined,
): KubeObject {
  const from = obj.apiVersion;
  if (from === apiVersion) return obj.kind === kind ? obj : { ...obj, kind };
  if (family === undefined) return { ...obj, apiVersion, kind };
  const spoke = (v: string | undefined) => family.spokes.find((s) => s.apiVersion === v);
  const fromSpoke = spoke(from);
  const hub: KubeObject =
    fromSpoke !== undefined ? fromSpoke.toHub(obj) : { ...obj, apiVersion: family.hubApiVersion };
  const toSpoke = spoke(apiVersion);
  const out = toSpoke !== undefined ? toSpoke.fromHub(hub) : hub;
  return { ...out, apiVersion, kind };
}

interface Convertible {
  apiVersion: string;
  kind: string;
  storageVersion: { apiVersion: string; kind: string };
  conversion?: ConversionFamily;
  /** Custom resources are also pruned and defaulted by the served version's schema when read. */
  crd?: { present(obj: KubeObject): KubeObject };
}

/** A stored object as the resource's served version presents it. */
export function toServedVersion(rt: Convertible, obj: KubeObject): KubeObject {
  const converted = convertObject(obj, rt.apiVersion, rt.kind, rt.conversion);
  return rt.crd === undefined ? converted : rt.crd.present(converted);
}

/** An object of the served version as it is stored. */
export function toStorageVersion(rt: Convertible, obj: KubeObject): KubeObject {
  return convertObject(obj, rt.storageVersion.apiVersion, rt.storageVersion.kind, rt.conversion);
}
