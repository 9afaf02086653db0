/**
 * Field errors: one problem with one field of an object, worded as the real
 * server words them (`metadata.name: Invalid value: "X": ...`). A list of
 * them becomes the causes and the message of a 422 Invalid Status.
 */

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path, e.g. `metadata.name` or `spec.containers[0].image`. */
  field: string;
  badValue?: unknown;
  detail?: string;
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/**
 * A bad value the real server prints with Go's `%#v` (a struct such as a CRD's ValidationRule): the text is
 * shown as is, since no JSON rendering matches it.
 */
export class GoValueText {
  constructor(readonly text: string) {}
}

/** Go's %q for strings, %v-like for the rest. */
export function formatValue(value: unknown): string {
  if (value instanceof GoValueText) return value.text;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The message of one error without its field, e.g. `Invalid value: "X": must be ...`. */
export function fieldErrorBody(e: FieldError): string {
  let s: string;
  switch (e.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      s = typeText[e.type];
      break;
    default:
      s = `${typeText[e.type]}: ${formatValue(e.badValue)}`;
  }
  if (e.detail !== undefined && e.detail !== '') s += `: ${e.detail}`;
  return s;
}

export function fieldErrorMessage(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** The aggregate text of a list: one message, or `[a, b]` for several (duplicates collapsed). */
export function aggregateFieldErrors(errors: FieldError[]): string {
  const seen = new Set<string>();
  const messages: string[] = [];
  for (const e of errors) {
    const m = fieldErrorMessage(e);
    if (!seen.has(m)) {
      seen.add(m);
      messages.push(m);
    }
  }
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0] ?? '';
  return `[${messages.join(', ')}]`;
}

export const fieldError = {
  required: (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  invalid: (field: string, badValue: unknown, detail?: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    badValue,
    detail,
  }),
  notSupported: (field: string, badValue: unknown, valid: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    badValue,
    detail:
      valid.length > 0 ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : undefined,
  }),
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  duplicate: (field: string, badValue: unknown): FieldError => ({
    type: 'FieldValueDuplicate',
    field,
    badValue,
  }),
  notFound: (field: string, badValue: unknown): FieldError => ({
    type: 'FieldValueNotFound',
    field,
    badValue,
  }),
  tooLong: (field: string, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: `must have at most ${maxLength} bytes`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  typeInvalid: (field: string, badValue: unknown, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    badValue,
    detail,
  }),
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, detail }),
};
