/**
 * Validation shared by webhook configurations and admission policies, which
 * the real server checks with the same code and words the same way: a
 * rule's operations, API groups and versions, resources (the wildcard
 * forms, including the real "last plain entry decides" reading of `*` next
 * to other resources) and scope; label selectors.
 */

import { fieldError, GoValueText, type FieldError } from '../../../machinery/field-errors';
import { isQualifiedName } from '../../../machinery/names';

type Obj = Record<string, unknown>;

export function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : [];
}

/** Go's `%#v` of a string slice, as the real messages print lists. */
export function goStrings(list: string[]): GoValueText {
  return new GoValueText(`[]string{${list.map((s) => JSON.stringify(s)).join(', ')}}`);
}

const supportedOperations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

export function validateRule(rule: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const operations = strings(rule.operations);
  errors.push(...validateList(operations, `${path}.operations`, 'operations'));
  operations.forEach((op, i) => {
    if (!supportedOperations.includes(op))
      errors.push(fieldError.notSupported(`${path}.operations[${i}]`, op, supportedOperations));
  });
  errors.push(...validateList(strings(rule.apiGroups), `${path}.apiGroups`, 'API groups'));
  const versions = strings(rule.apiVersions);
  errors.push(...validateList(versions, `${path}.apiVersions`, 'API versions'));
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

/** A rule's list must name something, and `*` only alone. */
function validateList(values: string[], path: string, what: string): FieldError[] {
  const errors: FieldError[] = [];
  if (values.length === 0) errors.push(fieldError.required(path, ''));
  if (values.length > 1 && values.includes('*'))
    errors.push(
      fieldError.invalid(path, goStrings(values), `if '*' is present, must not specify other ${what}`),
    );
  return errors;
}

function validateResources(resources: string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(fieldError.required(path, ''));
  const wildcardSub = new Set<string>();
  const wildcardRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let plainResource = false;
  resources.forEach((r, i) => {
    if (r === '') {
      errors.push(fieldError.required(`${path}[${i}]`, ''));
      return;
    }
    if (r === '*/*') doubleWildcard = true;
    if (r === '*') singleWildcard = true;
    const slash = r.indexOf('/');
    if (slash < 0) {
      plainResource = r !== '*';
      return;
    }
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    if (wildcardSub.has(res))
      errors.push(fieldError.invalid(`${path}[${i}]`, r, `if '${res}/*' is present, must not specify ${r}`));
    if (wildcardRes.has(sub))
      errors.push(fieldError.invalid(`${path}[${i}]`, r, `if '*/${sub}' is present, must not specify ${r}`));
    if (sub === '*') wildcardSub.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard)
    errors.push(
      fieldError.invalid(path, goStrings(resources), "if '*/*' is present, must not specify other resources"),
    );
  if (singleWildcard && plainResource)
    errors.push(
      fieldError.invalid(
        path,
        goStrings(resources),
        "if '*' is present, must not specify other resources without subresources",
      ),
    );
  return errors;
}

export function validateSelector(selector: unknown, path: string): FieldError[] {
  if (selector === null || typeof selector !== 'object') return [];
  const errors: FieldError[] = [];
  const expressions = (selector as { matchExpressions?: unknown }).matchExpressions;
  if (!Array.isArray(expressions)) return [];
  expressions.forEach((e, i) => {
    const r = (e ?? {}) as { key?: unknown; operator?: unknown; values?: unknown };
    const p = `${path}.matchExpressions[${i}]`;
    const values = strings(r.values);
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(
            fieldError.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
          );
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push(
            fieldError.forbidden(
              `${p}.values`,
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          );
        break;
      default:
        errors.push(fieldError.invalid(`${p}.operator`, r.operator ?? '', 'not a valid selector operator'));
    }
    for (const problem of isQualifiedName(typeof r.key === 'string' ? r.key : ''))
      errors.push(fieldError.invalid(`${p}.key`, r.key ?? '', problem));
  });
  return errors;
}
