/**
 * Validation of `MatchResources` (a policy's matchConstraints, a binding's
 * matchResources) as v1.27 words it: each named rule's operations, API
 * groups and versions, resources (the wildcard forms), scope and unique
 * resourceNames; matchPolicy; the label selectors. A policy must list
 * resourceRules; a binding may leave them out.
 */

import { fieldError, GoValueText, type FieldError } from '../../../../machinery/field-errors';
import { isQualifiedName } from '../../../../machinery/names';

type Obj = Record<string, unknown>;

export function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : [];
}

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Obj) : {})) : [];
}

/** Go's `%#v` of a string slice, as the real messages print lists. */
function goStrings(list: string[]): GoValueText {
  return new GoValueText(`[]string{${list.map((s) => JSON.stringify(s)).join(', ')}}`);
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

const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

function validateNamedRule(rule: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  strings(rule.resourceNames).forEach((n, i) => {
    if (seen.has(n)) errors.push(fieldError.duplicate(`${path}.resourceNames[${i}]`, n));
    seen.add(n);
  });
  const operations = strings(rule.operations);
  if (operations.length === 0) errors.push(fieldError.required(`${path}.operations`, ''));
  if (operations.length > 1 && operations.includes('*'))
    errors.push(
      fieldError.invalid(
        `${path}.operations`,
        goStrings(operations),
        "if '*' is present, must not specify other operations",
      ),
    );
  operations.forEach((op, i) => {
    if (!supportedOperations.includes(op))
      errors.push(fieldError.notSupported(`${path}.operations[${i}]`, op, supportedOperations));
  });
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errors.push(fieldError.required(`${path}.apiGroups`, ''));
  if (groups.length > 1 && groups.includes('*'))
    errors.push(
      fieldError.invalid(
        `${path}.apiGroups`,
        goStrings(groups),
        "if '*' is present, must not specify other API groups",
      ),
    );
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errors.push(fieldError.required(`${path}.apiVersions`, ''));
  if (versions.length > 1 && versions.includes('*'))
    errors.push(
      fieldError.invalid(
        `${path}.apiVersions`,
        goStrings(versions),
        "if '*' is present, must not specify other API versions",
      ),
    );
  versions.forEach((v, i) => {
    if (v === '') errors.push(fieldError.required(`${path}.apiVersions[${i}]`, ''));
  });
  errors.push(...validateResources(strings(rule.resources), `${path}.resources`));
  if (
    rule.scope !== undefined &&
    rule.scope !== null &&
    !['*', 'Cluster', 'Namespaced'].includes(String(rule.scope))
  )
    errors.push(fieldError.notSupported(`${path}.scope`, rule.scope, ['*', 'Cluster', 'Namespaced']));
  return errors;
}

function validateResources(resources: string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(fieldError.required(path, ''));
  const allSubresourcesOf = new Set<string>();
  const anyResourceWith = new Set<string>();
  let plain = false;
  resources.forEach((r, i) => {
    if (r === '') {
      errors.push(fieldError.required(`${path}[${i}]`, ''));
      return;
    }
    const slash = r.indexOf('/');
    if (slash < 0) {
      if (r !== '*') plain = true;
      return;
    }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if (allSubresourcesOf.has(res))
      errors.push(fieldError.invalid(`${path}[${i}]`, r, `if '${res}/*' is present, must not specify ${r}`));
    if (anyResourceWith.has(sub))
      errors.push(fieldError.invalid(`${path}[${i}]`, r, `if '*/${sub}' is present, must not specify ${r}`));
    if (sub === '*') allSubresourcesOf.add(res);
    if (res === '*') anyResourceWith.add(sub);
  });
  if (resources.length > 1 && resources.includes('*/*'))
    errors.push(
      fieldError.invalid(path, goStrings(resources), "if '*/*' is present, must not specify other resources"),
    );
  if (resources.includes('*') && plain)
    errors.push(
      fieldError.invalid(
        path,
        goStrings(resources),
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  return errors;
}

function validateSelector(selector: unknown, path: string): FieldError[] {
  if (selector === null || typeof selector !== 'object') return [];
  const errors: FieldError[] = [];
  objects((selector as Obj).matchExpressions).forEach((r, i) => {
    const p = `${path}.matchExpressions[${i}]`;
    const values = strings(r.values);
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (values.length === 0)
        errors.push(
          fieldError.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
        );
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (values.length > 0)
        errors.push(
          fieldError.forbidden(
            `${p}.values`,
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
    } else
      errors.push(fieldError.invalid(`${p}.operator`, r.operator ?? '', 'not a valid selector operator'));
    for (const problem of isQualifiedName(typeof r.key === 'string' ? r.key : ''))
      errors.push(fieldError.invalid(`${p}.key`, r.key ?? '', problem));
  });
  return errors;
}
