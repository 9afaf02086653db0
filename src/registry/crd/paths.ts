/**
 * Field paths the way the real server's `field.Path` prints them
 * (`spec.versions[0].schema.openAPIV3Schema.properties[spec].type`, keys in
 * brackets without quotes, the root `<nil>`), and Go's `%#v` of a CRD
 * validation rule, which CRD errors show as the bad value.
 */

import { goQuote } from '../../machinery/go-format';
import { GoValueText } from '../../machinery/field-errors';
import type { ValidationRule } from '../../machinery/schema';

export const NIL_PATH = '<nil>';

export function child(path: string, name: string): string {
  return path === '' || path === NIL_PATH ? name : `${path}.${name}`;
}

export function key(path: string, k: string): string {
  return `${path === NIL_PATH ? '' : path}[${k}]`;
}

export function index(path: string, i: number): string {
  return `${path === NIL_PATH ? '' : path}[${i}]`;
}

/** The root of an object is `<nil>` in the real server's messages. */
export function shown(path: string): string {
  return path === '' ? NIL_PATH : path;
}

/** `apiextensions.ValidationRule{Rule:"...", ...}` as Go's `%#v` prints the internal type (v1.28 fields included). */
export function goRule(rule: ValidationRule): GoValueText {
  const reason =
    rule.reason === undefined
      ? '(*apiextensions.FieldValueErrorReason)(nil)'
      : `(*apiextensions.FieldValueErrorReason)(${goQuote(rule.reason)})`;
  return new GoValueText(
    `apiextensions.ValidationRule{Rule:${goQuote(rule.rule)}, Message:${goQuote(rule.message ?? '')}, MessageExpression:${goQuote(rule.messageExpression ?? '')}, Reason:${reason}, FieldPath:${goQuote(rule.fieldPath ?? '')}}`,
  );
}
