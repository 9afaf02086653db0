/**
 * Field validation of request bodies (`fieldValidation=Ignore|Warn|Strict`,
 * default Warn): fields the kind's schema does not know are dropped, and
 * they and the fields a body repeats are reported as one Warning item each
 * (Warn) or all together in one error (Strict), in the real server's words
 * and order (see `strict-findings`).
 */

import type { KubeObject } from '../api/meta';
import { badRequest, type StatusError } from '../machinery/errors';
import type { DuplicateField } from '../machinery/decode/json';
import type { DefinitionSet, SchemaNode } from '../machinery/schema';
import type { ResourceType } from '../registry/resource-type';
import { checkAgainstSchema } from '../registry/validation/schema-check';
import {
  inDocumentOrder,
  inSortedOrder,
  pathSegments,
  typedDecoderSees,
  type FieldAt,
} from './strict-findings';

export type FieldValidationMode = 'Ignore' | 'Warn' | 'Strict';

export function parseFieldValidation(query: URLSearchParams): FieldValidationMode {
  const v = query.get('fieldValidation') ?? '';
  if (v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw badRequest(
    `fieldValidation: Unsupported value: ${JSON.stringify(v)}: supported values: "", "Ignore", "Strict", "Warn"`,
  );
}

/**
 * What decoding found besides the value. `typed` is a JSON body decoded into
 * the kind's own type: its repeats interleave with unknown fields in
 * document order. Otherwise `leading` errors (a YAML decoder's error, the
 * repeats of a patch document) come first and unknown fields follow sorted.
 */
export interface DecodeFindings {
  typed?: readonly DuplicateField[];
  leading?: readonly string[];
}

/** Problems found while decoding (duplicates) and against the schema (unknown fields), already ordered. */
export interface DecodeProblems {
  duplicates: string[];
  unknown: string[];
}

/** The strict-decoding texts, duplicates first (the order of decoders that read the document before the object). */
export function problemMessages(p: DecodeProblems): string[] {
  return dedupe([
    ...p.duplicates.map((f) => `duplicate field "${f}"`),
    ...p.unknown.map((f) => `unknown field "${f}"`),
  ]);
}

/** The real server keeps at most this many strict errors of one decode, each once. */
const maxStrictErrors = 100;

function dedupe(messages: readonly string[]): string[] {
  return [...new Set(messages)];
}

/** Warning items for strict errors: a YAML decoder's error becomes one item per line it lists. */
export function warningItems(messages: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    const yaml = [
      'yaml: unmarshal errors:\n',
      'error converting YAML to JSON: yaml: unmarshal errors:\n',
    ].find((p) => m.startsWith(p));
    if (yaml === undefined) out.push(m);
    else
      out.push(
        ...m
          .slice(yaml.length)
          .split('\n')
          .map((l) => l.trim()),
      );
  }
  return out;
}

export interface FieldValidationOptions {
  /** Builds the Strict error from its message (`strict decoding error: ...`); a 400 by default. */
  strictError?: (message: string) => StatusError;
}

/** Strict errors of a POST or PUT body: the real server could not decode it as the kind. */
export function undecodable(rt: Pick<ResourceType, 'kind' | 'version'>): (message: string) => StatusError {
  return (message) =>
    badRequest(
      `${rt.kind} in version ${JSON.stringify(rt.version)} cannot be handled as a ${rt.kind}: ${message}`,
    );
}

function rootSchema(rt: ResourceType): SchemaNode | undefined {
  return rt.schema ?? (rt.definition !== undefined ? { ref: rt.definition } : undefined);
}

/** Drops the fields the schema does not know; custom resources prune structurally (preserve-unknown-fields, embedded metadata). */
function pruneUnknown(
  defs: DefinitionSet,
  rt: ResourceType,
  root: SchemaNode | undefined,
  obj: KubeObject,
): string[] {
  if (rt.crd !== undefined) return rt.crd.prune(obj);
  return root === undefined ? [] : checkAgainstSchema(defs, root, obj, { prune: true }).unknown;
}

/** The strict-decoding messages of `obj` (unknown fields are dropped from it) in the real server's order. */
export function strictMessages(
  defs: DefinitionSet,
  rt: ResourceType,
  obj: KubeObject,
  findings: DecodeFindings | readonly string[] = {},
): string[] {
  const root = rootSchema(rt);
  if (Array.isArray(findings)) {
    const unknown = pruneUnknown(defs, rt, root, obj);
    return problemMessages({ duplicates: [...(findings as readonly string[])], unknown });
  }
  const f = findings as DecodeFindings;
  const typed = f.typed ?? [];
  if (f.typed !== undefined && root !== undefined && !rt.custom) {
    if (typed.length === 0) {
      const unknown = checkAgainstSchema(defs, root, obj, { prune: true }).unknown;
      return dedupe(unknown.map((p) => `unknown field "${p}"`)).slice(0, maxStrictErrors);
    }
    // Rank against the object before unknown fields are pruned from it.
    const unknown = checkAgainstSchema(defs, root, obj, { prune: false }).unknown;
    const items: (FieldAt & { message: string })[] = [
      ...typed
        .filter((d) => typedDecoderSees(defs, root, d.segments))
        .map((d) => ({
          segments: d.segments,
          keysBefore: d.keysBefore,
          message: `duplicate field "${d.path}"`,
        })),
      ...unknown.map((p) => ({ segments: pathSegments(p), message: `unknown field "${p}"` })),
    ];
    const ordered = inDocumentOrder(obj, items).map((i) => i.message);
    if (unknown.length > 0) checkAgainstSchema(defs, root, obj, { prune: true });
    return dedupe(ordered).slice(0, maxStrictErrors);
  }
  const unknown = pruneUnknown(defs, rt, root, obj);
  const leading = [...(f.leading ?? []), ...typed.map((d) => `duplicate field "${d.path}"`)];
  return [
    ...dedupe(leading).slice(0, maxStrictErrors),
    ...dedupe(inSortedOrder(unknown).map((p) => `unknown field "${p}"`)).slice(0, maxStrictErrors),
  ];
}

/**
 * Drops unknown fields from `obj` and reports them and the decoder's
 * findings per the mode: Warning items (Warn), one error (Strict), or
 * nothing (Ignore). `findings` may also be a list of duplicate paths.
 */
export function enforceFieldValidation(
  defs: DefinitionSet,
  rt: ResourceType,
  obj: KubeObject,
  mode: FieldValidationMode,
  warnings: string[],
  findings: DecodeFindings | readonly string[] = [],
  options: FieldValidationOptions = {},
): void {
  const messages = strictMessages(defs, rt, obj, findings);
  if (messages.length === 0 || mode === 'Ignore') return;
  if (mode === 'Strict') {
    const message = `strict decoding error: ${messages.join(', ')}`;
    throw options.strictError?.(message) ?? badRequest(message);
  }
  warnings.push(...warningItems(messages));
}
