/**
 * What the server knows about one served version of a custom resource,
 * built from its CRD: the structural schema and its compiled validation
 * rules, and the operations the write and read paths run with them —
 * pruning (which reports the unknown fields field validation warns about
 * or rejects), the decoding steps (pruning, nulls, defaults), read-time
 * pruning and defaulting, and validation in the real strategy's order
 * (schema, scale paths, embedded resources, list-type guarantees, then the
 * CEL rules unless a blocking error makes them meaningless). Printer
 * columns and scale paths are carried for the HTTP layer. The rules are
 * compiled at the first validation that runs them, not when the CRD is
 * served (the registrar builds facts inside a synchronous informer
 * callback, and the CEL library is loaded only by a write that needs it:
 * `needsLibrary`).
 */

import type { KubeObject } from '../../api/meta';
import type { CompiledRule } from '../../cel/index';
import { fieldError, type FieldError, type FieldErrorType } from '../../machinery/field-errors';
import { goTypeName, goValue } from '../../machinery/go-format';
import { deepClone } from '../../machinery/json';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import { validateCelRules } from './cel-validate';
import { applySchemaDefaults, hasDefaults } from './defaulting';
import { validateEmbeddedResources } from './embedded';
import { validateListSetsAndMaps } from './list-type';
import { NIL_PATH } from './paths';
import { pruneNonNullableNulls, pruneValue } from './prune';
import type { CrdColumn } from './types';
import { validateValue } from './value-validation';

export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceFacts {
  /** The CRD this version comes from. */
  readonly crdName: string;
  /** The version's structural schema (as written; the served `rt.schema` adds apiVersion, kind and ObjectMeta). */
  readonly schema: SchemaNode;
  /** Printer columns, the default `Age` column when the CRD declares none. */
  readonly columns: readonly CrdColumn[];
  readonly scale?: ScalePaths;
  /** The CRD is being deleted: new objects are refused. */
  readonly terminating: boolean;
  /** Drops unknown fields in place; returns their paths (sorted). */
  prune(obj: KubeObject): string[];
  /** What decoding a body does: prune, drop non-nullable nulls, apply defaults. */
  normalize(obj: KubeObject): void;
  /** A stored object as a read presents it (pruned and defaulted, on a copy). */
  present(obj: KubeObject): KubeObject;
  /** Everything the custom resource strategy validates beyond object metadata. */
  /** `cel` false: the CustomResourceValidationExpressions gate is off and no rule runs. */
  validate(obj: KubeObject, old?: KubeObject, cel?: boolean): FieldError[];
  /** Whether `validate` needs the CEL library (RE2 for a `pattern`, the engine for rules): load it first. */
  needsLibrary(cel: boolean): boolean;
}

const blocking = new Set<FieldErrorType>([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

function nested(obj: unknown, path: string): { found: boolean; value: unknown } {
  let cur: unknown = obj;
  for (const part of path.replace(/^\./, '').split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !(part in cur))
      return { found: false, value: undefined };
    cur = (cur as Record<string, unknown>)[part];
  }
  return { found: true, value: cur };
}

const maxInt32 = 2147483647;

/** The replicas paths must hold non-negative int32 integers and the selector path a string, as the real validator demands. */
function scaleErrors(obj: KubeObject, scale: ScalePaths | undefined): FieldError[] {
  if (scale === undefined) return [];
  const errs: FieldError[] = [];
  for (const path of [scale.specReplicasPath, scale.statusReplicasPath]) {
    const { found, value } = nested(obj, path);
    if (!found) continue;
    if (typeof value !== 'number' || !Number.isInteger(value))
      errs.push(
        fieldError.invalid(
          path,
          0,
          `${path} accessor error: ${goValue(value)} is of the type ${goTypeName(value)}, expected int64`,
        ),
      );
    else if (value < 0) errs.push(fieldError.invalid(path, value, 'should be a non-negative integer'));
    else if (value > maxInt32)
      errs.push(fieldError.invalid(path, value, `should be less than or equal to ${maxInt32}`));
  }
  if (scale.labelSelectorPath !== undefined) {
    const { found, value } = nested(obj, scale.labelSelectorPath);
    if (found && typeof value !== 'string')
      errs.push(
        fieldError.invalid(
          scale.labelSelectorPath,
          '',
          `${scale.labelSelectorPath} accessor error: ${goValue(value)} is of the type ${goTypeName(value)}, expected string`,
        ),
      );
  }
  return errs;
}

export interface FactsInput {
  crdName: string;
  definitions: DefinitionSet;
  schema: SchemaNode;
  /** Compiles the schema's rules; called once, at the first validation that runs them. */
  rules: () => ReadonlyMap<SchemaNode, readonly CompiledRule[]>;
  columns: readonly CrdColumn[];
  scale?: ScalePaths;
  terminating: boolean;
}

/** What in a schema needs the CEL library: rules anywhere, a `pattern` anywhere (value validations included). */
function libraryUses(node: SchemaNode, found = { rules: false, patterns: false }): typeof found {
  if (node.pattern !== undefined) found.patterns = true;
  if ((node.validations ?? []).some((r) => r.rule.trim() !== '')) found.rules = true;
  const children = [
    ...Object.values(node.properties ?? {}),
    ...(typeof node.additionalProperties === 'object' ? [node.additionalProperties] : []),
    ...(node.items !== undefined ? [node.items] : []),
    ...(node.allOf ?? []),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.not !== undefined ? [node.not] : []),
  ];
  for (const child of children) libraryUses(child, found);
  return found;
}

export function customResourceFacts(input: FactsInput): CustomResourceFacts {
  const { definitions, schema } = input;
  const uses = libraryUses(schema);
  let compiled: ReadonlyMap<SchemaNode, readonly CompiledRule[]> | undefined;
  const rules = (): ReadonlyMap<SchemaNode, readonly CompiledRule[]> => (compiled ??= input.rules());
  const defaults = hasDefaults(schema);
  const prune = (obj: KubeObject): string[] => pruneValue(definitions, schema, obj, true);
  const normalize = (obj: KubeObject): void => {
    prune(obj);
    pruneNonNullableNulls(obj, schema);
    if (defaults) applySchemaDefaults(obj, schema);
  };
  return {
    crdName: input.crdName,
    schema,
    columns: input.columns,
    ...(input.scale !== undefined ? { scale: input.scale } : {}),
    terminating: input.terminating,
    prune,
    normalize,
    present(obj) {
      const copy = deepClone(obj);
      normalize(copy);
      return copy;
    },
    validate(obj, old, cel = true) {
      const errs = [
        ...validateValue(schema, obj),
        ...scaleErrors(obj, input.scale),
        ...validateEmbeddedResources(schema, obj),
        ...validateListSetsAndMaps(schema, obj),
      ];
      if (!uses.rules || !cel || rules().size === 0) return errs;
      if (errs.some((e) => blocking.has(e.type)))
        return [
          ...errs,
          fieldError.invalid(
            NIL_PATH,
            // Go prints a nil bad value as the string "null".
            'null',
            'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
          ),
        ];
      return [...errs, ...validateCelRules(rules(), schema, obj, old)];
    },
    needsLibrary: (cel) => uses.patterns || (cel && uses.rules),
  };
}
