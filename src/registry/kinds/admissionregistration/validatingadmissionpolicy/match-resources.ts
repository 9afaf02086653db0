/**
 * Validation of `MatchResources` (a policy's matchConstraints, a binding's
 * matchResources) as v1.27 words it: each named rule's operations, API
 * groups and versions, resources (the wildcard forms), scope and unique
 * resourceNames; matchPolicy; the label selectors. A policy must list
 * resourceRules; a binding may leave them out. The rules and selectors
 * themselves are checked as a webhook's are (../rule-validation).
 */

import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { strings, validateRule, validateSelector } from '../rule-validation';

type Obj = Record<string, unknown>;

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Obj) : {})) : [];
}

export function validateMatchResources(value: unknown, path: string, requireRules: boolean): FieldError[] {
  const m = (value ?? {}) as Obj;
  const errors: FieldError[] = [];
  const policy = m.matchPolicy;
  if (policy === undefined || policy === null || policy === '')
    errors.push(fieldError.required(`${path}.matchPolicy`, ''));
  else if (policy !== 'Exact' && policy !== 'Equivalent')
    errors.push(fieldError.notSupported(`${path}.matchPolicy`, policy, ['Equivalent', 'Exact']));
  errors.push(...validateSelector(m.namespaceSelector, `${path}.namespaceSelector`));
  errors.push(...validateSelector(m.objectSelector, `${path}.objectSelector`));
  const rules = objects(m.resourceRules);
  if (requireRules && rules.length === 0) errors.push(fieldError.required(`${path}.resourceRules`, ''));
  rules.forEach((r, i) => errors.push(...validateNamedRule(r, `${path}.resourceRules[${i}]`)));
  objects(m.excludeResourceRules).forEach((r, i) =>
    errors.push(...validateNamedRule(r, `${path}.excludeResourceRules[${i}]`)),
  );
  return errors;
}

function validateNamedRule(rule: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((n, i) => {
    if (seen.has(n)) errors.push(fieldError.duplicate(`${path}.resourceNames[${i}]`, n));
    seen.add(n);
  });
  errors.push(...validateRule(rule, path));
  return errors;
}
