/**
 * ValidatingAdmissionPolicy (v1alpha1) validation as v1.27 words it, one
 * cause per problem: failurePolicy, paramKind, matchConstraints (with
 * resourceRules required), matchConditions, at least one validation or
 * audit annotation, each validation's expression compiled to a bool (with
 * `params` declared only when there is a paramKind), its message, reason
 * and messageExpression (compiled to a string), and each audit
 * annotation's key and valueExpression (string or null). v1.27 does no
 * type checking against the matched kinds at create: `status.typeChecking`
 * is left unset (see docs/decisions/0018).
 */

import type { KubeObject } from '../../../../api/meta';
import { compilePolicyExpression, type ExpectedType } from '../../../../cel/policy-expressions';
import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../../../../machinery/names';
import { validateMatchResources } from './match-resources';

type Obj = Record<string, unknown>;

const reasons = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];

function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map((x) => (x !== null && typeof x === 'object' ? (x as Obj) : {})) : [];
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function validatePolicy(obj: KubeObject): FieldError[] {
  const spec = ((obj as { spec?: unknown }).spec ?? {}) as Obj;
  const errors: FieldError[] = [];
  const fp = spec.failurePolicy;
  if (fp === undefined || fp === null) errors.push(fieldError.required('spec.failurePolicy', ''));
  else if (fp !== 'Fail' && fp !== 'Ignore')
    errors.push(fieldError.notSupported('spec.failurePolicy', fp, ['Fail', 'Ignore']));
  const hasParams = spec.paramKind !== undefined && spec.paramKind !== null;
  if (hasParams) errors.push(...validateParamKind(spec.paramKind as Obj));
  if (spec.matchConstraints === undefined || spec.matchConstraints === null)
    errors.push(fieldError.required('spec.matchConstraints', ''));
  else errors.push(...validateMatchResources(spec.matchConstraints, 'spec.matchConstraints', true));
  errors.push(...validateMatchConditions(spec.matchConditions, hasParams));
  const validations = objects(spec.validations);
  const annotations = objects(spec.auditAnnotations);
  if (validations.length === 0 && annotations.length === 0)
    errors.push(
      fieldError.required(
        'spec.validations',
        'validations or auditAnnotations must contain at least one item',
      ),
    );
  validations.forEach((v, i) => errors.push(...validateValidation(v, `spec.validations[${i}]`, hasParams)));
  const keys = new Set<string>();
  annotations.forEach((x, i) => {
    const path = `spec.auditAnnotations[${i}]`;
    const key = text(x.key);
    if (key === '') errors.push(fieldError.required(`${path}.key`, ''));
    else {
      for (const problem of isQualifiedName(`${obj.metadata?.name ?? ''}/${key}`))
        errors.push(fieldError.invalid(`${path}.key`, key, problem));
      if (keys.has(key)) errors.push(fieldError.duplicate(`${path}.key`, key));
      keys.add(key);
    }
    errors.push(
      ...expressionErrors(
        x.valueExpression,
        `${path}.valueExpression`,
        hasParams,
        'string-or-null',
        'valueExpression is not specified',
      ),
    );
  });
  return errors;
}

function validateParamKind(kind: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = text(kind.apiVersion);
  if (apiVersion === '') errors.push(fieldError.required('spec.paramKind.apiVersion', ''));
  else {
    const parts = apiVersion.split('/');
    if (parts.length > 2)
      errors.push(
        fieldError.invalid(
          'spec.paramKind.apiVersion',
          apiVersion,
          `unexpected GroupVersion string: ${apiVersion}`,
        ),
      );
    else {
      const [group, version] = parts.length === 2 ? [parts[0] ?? '', parts[1] ?? ''] : ['', parts[0] ?? ''];
      if (group !== '') {
        const problems = isDNS1123Subdomain(group);
        if (problems.length > 0)
          errors.push(fieldError.invalid('spec.paramKind.apiVersion', group, problems.join(',')));
      }
      if (version === '')
        errors.push(fieldError.invalid('spec.paramKind.apiVersion', apiVersion, 'version must be specified'));
      else {
        const problems = isDNS1035Label(version);
        if (problems.length > 0)
          errors.push(fieldError.invalid('spec.paramKind.apiVersion', version, problems.join(',')));
      }
    }
  }
  const k = text(kind.kind);
  if (k === '') errors.push(fieldError.required('spec.paramKind.kind', ''));
  else {
    const problems = isDNS1035Label(k.toLowerCase());
    if (problems.length > 0)
      errors.push(
        fieldError.invalid(
          'spec.paramKind.kind',
          k,
          `may have mixed case, but should otherwise match: ${problems.join(',')}`,
        ),
      );
  }
  return errors;
}

function validateMatchConditions(value: unknown, hasParams: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const conditions = objects(value);
  if (conditions.length > 64)
    errors.push({
      type: 'FieldValueTooMany',
      field: 'spec.matchConditions',
      badValue: conditions.length,
      detail: 'must have at most 64 items',
    });
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const path = `spec.matchConditions[${i}]`;
    const name = text(c.name);
    if (name === '') errors.push(fieldError.required(`${path}.name`, ''));
    else {
      for (const problem of isQualifiedName(name))
        errors.push(fieldError.invalid(`${path}.name`, name, problem));
      if (names.has(name)) errors.push(fieldError.duplicate(`${path}.name`, name));
      names.add(name);
    }
    errors.push(...expressionErrors(c.expression, `${path}.expression`, hasParams, 'bool', ''));
  });
  return errors;
}

function validateValidation(v: Obj, path: string, hasParams: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const expression = text(v.expression).trim();
  const message = v.message;
  const trimmedMessage = text(message).trim();
  errors.push(
    ...expressionErrors(v.expression, `${path}.expression`, hasParams, 'bool', 'expression is not specified'),
  );
  if (typeof message === 'string' && message !== '' && trimmedMessage === '')
    errors.push(fieldError.invalid(`${path}.message`, message, 'message must be non-empty if specified'));
  else if (trimmedMessage.includes('\n'))
    errors.push(fieldError.invalid(`${path}.message`, message, 'message must not contain line breaks'));
  else if (expression.includes('\n') && trimmedMessage === '')
    errors.push(
      fieldError.required(`${path}.message`, 'message must be specified if expression contains line breaks'),
    );
  if (v.reason !== undefined && v.reason !== null && !reasons.includes(String(v.reason)))
    errors.push(fieldError.notSupported(`${path}.reason`, v.reason, reasons));
  if (typeof v.messageExpression === 'string' && v.messageExpression !== '') {
    if (v.messageExpression.trim() === '')
      errors.push(
        fieldError.required(`${path}.messageExpression`, 'messageExpression must be non-empty if specified'),
      );
    else
      errors.push(
        ...expressionErrors(v.messageExpression, `${path}.messageExpression`, hasParams, 'string', ''),
      );
  }
  return errors;
}

function expressionErrors(
  value: unknown,
  path: string,
  hasParams: boolean,
  expect: ExpectedType,
  missing: string,
): FieldError[] {
  const source = text(value);
  if (source.trim() === '') return [fieldError.required(path, missing)];
  const compiled = compilePolicyExpression(source.trim(), hasParams, expect);
  return 'error' in compiled ? [fieldError.invalid(path, source, compiled.error)] : [];
}
