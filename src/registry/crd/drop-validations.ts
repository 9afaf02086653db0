/**
 * With the CustomResourceValidationExpressions gate off, a v1.27 server
 * drops the CEL rules (`x-kubernetes-validations`, named per profile) from
 * every schema of a CRD it creates, and from an update unless the stored
 * CRD already uses them (the real strategy's dropDisabledFields), so rules
 * written while the gate is off are neither stored nor compiled.
 */

import { isPlainObject } from '../../machinery/json';
import type { NamingProfile } from '../../machinery/naming';
import type { KubeObject } from '../../api/meta';

/** JSONSchemaProps fields that hold schemas (one, a list, or a map of them). */
const single = ['items', 'additionalProperties', 'additionalItems', 'not'];
const lists = ['allOf', 'anyOf', 'oneOf', 'items'];
const maps = ['properties', 'patternProperties', 'definitions', 'dependencies'];

function walk(schema: unknown, visit: (node: Record<string, unknown>) => boolean): boolean {
  if (!isPlainObject(schema)) return false;
  let found = visit(schema);
  for (const k of single) found = walk(schema[k], visit) || found;
  for (const k of lists) {
    const list = schema[k];
    if (Array.isArray(list)) for (const s of list) found = walk(s, visit) || found;
  }
  for (const k of maps) {
    const map = schema[k];
    if (isPlainObject(map)) for (const s of Object.values(map)) found = walk(s, visit) || found;
  }
  return found;
}

function schemas(crd: KubeObject): unknown[] {
  const spec = crd.spec;
  if (!isPlainObject(spec) || !Array.isArray(spec.versions)) return [];
  return spec.versions.map((v) =>
    isPlainObject(v) && isPlainObject(v.schema) ? v.schema.openAPIV3Schema : undefined,
  );
}

function usesRules(crd: KubeObject, key: string): boolean {
  return schemas(crd).some((s) => walk(s, (node) => node[key] !== undefined));
}

export function dropDisabledValidations(
  profile: NamingProfile,
  crd: KubeObject,
  old: KubeObject | undefined,
): void {
  const key = profile.ext('validations');
  if (old !== undefined && usesRules(old, key)) return;
  for (const s of schemas(crd))
    walk(s, (node) => {
      delete node[key];
      return false;
    });
}
