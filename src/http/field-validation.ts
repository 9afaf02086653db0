/**
 * Field validation of request bodies (`fieldValidation=Ignore|Warn|Strict`,
 * default Warn): fields the kind's schema does not know are dropped, and
 * reported as one Warning item each (Warn) or all together in one 400
 * (Strict), in the real server's words.
 */

import type { KubeObject } from '../api/meta';
import { badRequest } from '../machinery/errors';
import type { DefinitionSet } from '../machinery/schema';
import type { ResourceType } from '../registry/resource-type';
import { checkAgainstSchema } from '../registry/validation/schema-check';

export type FieldValidationMode = 'Ignore' | 'Warn' | 'Strict';

export function parseFieldValidation(query: URLSearchParams): FieldValidationMode {
  const v = query.get('fieldValidation') ?? '';
  if (v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw badRequest(`fieldValidation: Unsupported value: ${JSON.stringify(v)}: supported values: "", "Ignore", "Strict", "Warn"`);
}

/** Problems found while decoding (duplicates) and against the schema (unknown fields). */
export interface DecodeProblems {
  duplicates: string[];
  unknown: string[];
}

export function problemMessages(p: DecodeProblems): string[] {
  return [...p.duplicates.map((f) => `duplicate field "${f}"`), ...p.unknown.map((f) => `unknown field "${f}"`)];
}

/** Drops unknown fields from `obj` and reports them (and `duplicates`) per the mode. */
export function enforceFieldValidation(
  defs: DefinitionSet,
  rt: ResourceType,
  obj: KubeObject,
  mode: FieldValidationMode,
  warnings: string[],
  duplicates: string[] = [],
): void {
  const root = rt.schema ?? (rt.definition !== undefined ? { ref: rt.definition } : undefined);
  const unknown = root === undefined ? [] : checkAgainstSchema(defs, root, obj, { prune: true }).unknown;
  const messages = problemMessages({ duplicates, unknown });
  if (messages.length === 0 || mode === 'Ignore') return;
  if (mode === 'Strict') throw badRequest(`strict decoding error: ${messages.join(', ')}`);
  warnings.push(...messages);
}
