/**
 * Whether validating a CRD needs the CEL library (loaded on first use, see
 * cel/engine.ts): its schemas hold a validation rule, compiled and
 * cost-estimated at create and update, or a `pattern`, compiled by RE2 and
 * matched against defaults. A CRD with neither is validated without it.
 */

import type { KubeObject } from '../../api/meta';
import { isPlainObject } from '../../machinery/json';
import type { NamingProfile } from '../../machinery/naming';

export function crdNeedsCelLibrary(profile: NamingProfile, crd: KubeObject): boolean {
  const spec = (crd as { spec?: unknown }).spec;
  return isPlainObject(spec) && usesLibrary(spec.versions, profile.ext('validations'));
}

// Over-approximates on purpose (a field named `pattern` with a string default counts): loading is harmless.
function usesLibrary(value: unknown, validationsKey: string): boolean {
  if (Array.isArray(value)) return value.some((v) => usesLibrary(v, validationsKey));
  if (!isPlainObject(value)) return false;
  if (typeof value.pattern === 'string') return true;
  const rules = value[validationsKey];
  if (Array.isArray(rules) && rules.length > 0) return true;
  return Object.values(value).some((v) => usesLibrary(v, validationsKey));
}
