/**
 * Conversion between the stored form of an object and the version a
 * request addresses. Every version of a resource shares one storage
 * identity; objects are presented with the served apiVersion and kind.
 * Versions whose fields differ register a converter here.
 */

import type { KubeObject } from '../api/meta';
import type { ResourceType } from './resource-type';

/** The object as the served version presents it (a shallow copy with apiVersion and kind set). */
export function toServedVersion(rt: ResourceType, obj: KubeObject): KubeObject {
  if (obj.apiVersion === rt.apiVersion && obj.kind === rt.kind) return obj;
  return { ...obj, apiVersion: rt.apiVersion, kind: rt.kind };
}
