/**
 * Field validation of request bodies (`fieldValidation=Ignore|Warn|Strict`,
 * default Warn): fields the kind's schema does not know are dropped, and
 * they and the fields a body repeats are reported as one Warning item each
 * (Warn) or all together in one error (Strict), in the real server's words
 * and order (see `strict-findings`).
 */

import type { KubeObject } from '../api/meta';
import { badRequest, invalid, type StatusError } from '../machinery/errors';
import { fieldError } from '../machinery/field-errors';
import type { DuplicateField } from '../machinery/decode/json';
import type { DefinitionSet, SchemaNode } from '../machinery/schema';
import type { ResourceType } from '../registry/resource-type';
import { breathe } from '../machinery/cooperative';
import { checkAgainstSchema } from '../registry/validation/schema-check';
import { decodeTypeError } from '../registry/validation/decode-types';
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
  /** Builds the error of a body whose field types do not fit the kind (`json: cannot unmarshal ...`); `strictError` by default. */
  typeError?: (message: string) => StatusError;
}

/**
 * A built-in kind's body that Go could not decode into the kind's type
 * (`json: cannot unmarshal number into Go struct field ...`): the message,
 * or undefined when every known field has its declared JSON type. Custom
 * resources decode untyped and always pass.
 */
export function typedDecodeError(defs: DefinitionSet, rt: ResourceType, obj: unknown): string | undefined {
  if (rt.custom) {
    // A custom resource decodes untyped, but its metadata is read into ObjectMeta on its own.
    const meta = (obj as { metadata?: unknown } | null)?.metadata;
    return objectMetaRef in defs ? decodeTypeError(defs, { ref: objectMetaRef }, meta) : undefined;
  }
  const root = rootSchema(rt);
  return root === undefined ? undefined : decodeTypeError(defs, root, obj);
}

const objectMetaRef = 'apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The error builders `undecodable` made: bodies of POST and PUT, whose type errors are 400s too. */
const bodyDecodeErrors = new WeakSet<(message: string) => StatusError>();

/** `undecodable`'s builders, one per resource type: every create and update asks for one. */
const undecodableOf = new WeakMap<Pick<ResourceType, 'kind' | 'version'>, (message: string) => StatusError>();

/** Strict errors of a POST or PUT body: the real server could not decode it as the kind. */
export function undecodable(rt: Pick<ResourceType, 'kind' | 'version'>): (message: string) => StatusError {
  let build = undecodableOf.get(rt);
  if (build === undefined) {
    build = (message: string): StatusError =>
      badRequest(
        `${rt.kind} in version ${JSON.stringify(rt.version)} cannot be handled as a ${rt.kind}: ${message}`,
      );
    bodyDecodeErrors.add(build);
    undecodableOf.set(rt, build);
  }
  return build;
}

/**
 * A patched object the kind's type cannot hold: the real server fails to
 * decode the patch result and answers 422 on the field `patch`, with the
 * patched object as the value (`"" is invalid: patch: Invalid value: ...`).
 */
export function patchTypeError(patched: unknown, message: string): StatusError {
  return invalid({ group: '', kind: '' }, '', [
    fieldError.invalid('patch', JSON.stringify(patched), message),
  ]);
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
export async function enforceFieldValidation(
  defs: DefinitionSet,
  rt: ResourceType,
  obj: KubeObject,
  mode: FieldValidationMode,
  warnings: { push(...items: string[]): void },
  findings: DecodeFindings | readonly string[] = [],
  options: FieldValidationOptions = {},
): Promise<void> {
  // Shapes first: nothing below (or after) may meet a field of the wrong JSON type.
  const typeMismatch = typedDecodeError(defs, rt, obj);
  if (typeMismatch !== undefined) {
    if (options.typeError !== undefined) throw options.typeError(typeMismatch);
    if (options.strictError !== undefined && bodyDecodeErrors.has(options.strictError))
      throw options.strictError(typeMismatch);
    // Patches (and apply configurations) are decoded after they are applied: the result is what failed.
    throw patchTypeError(obj, typeMismatch);
  }
  // Each check is one pass over the object (tens of ms for a 100,000-key map): others may run between them.
  await breathe();
  const messages = strictMessages(defs, rt, obj, findings);
  if (messages.length === 0 || mode === 'Ignore') return;
  if (mode === 'Strict') {
    const message = `strict decoding error: ${messages.join(', ')}`;
    throw options.strictError?.(message) ?? badRequest(message);
  }
  warnings.push(...warningItems(messages));
}
