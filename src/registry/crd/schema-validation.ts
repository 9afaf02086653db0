/**
 * Validation of one CRD version's `schema.openAPIV3Schema`, in the real
 * server's order: root restrictions when the status subresource is on, the
 * structural-schema rules, then defaults (pruned, and valid against their
 * own schema and rules), then the OpenAPI rules of every node, then — only
 * when all of that passed — compiling the validation rules, type-checked
 * and cost-estimated.
 */

import { fieldError, GoValueText, type FieldError } from '../../machinery/field-errors';
import { deepClone, deepEqual } from '../../machinery/json';
import type { NamingProfile } from '../../machinery/naming';
import type { DefinitionSet, SchemaNode } from '../../machinery/schema';
import type { CompiledRule } from '../../cel/index';
import { validateCelRules } from './cel-validate';
import { validateEmbeddedResources } from './embedded';
import { checkOpenApiSchema } from './openapi-schema';
import { child, key } from './paths';
import { pruneValue } from './prune';
import { compileSchemaRules } from './rules';
import { isRaw, toSchemaNode } from './schema-props';
import { validateStructural } from './structural';
import { validateValue } from './value-validation';

type Raw = Record<string, unknown>;

/** JSON keys of JSONSchemaProps in the Go struct's field order, with whether they may sit at the root when status is on. */
function rootFields(profile: NamingProfile): [string, boolean][] {
  const x = profile.ext;
  return [
    ['id', false],
    ['$schema', false],
    ['$ref', false],
    ['description', true],
    ['type', true],
    ['format', true],
    ['title', true],
    ['default', false],
    ['maximum', true],
    ['exclusiveMaximum', true],
    ['minimum', true],
    ['exclusiveMinimum', true],
    ['maxLength', true],
    ['minLength', true],
    ['pattern', true],
    ['maxItems', true],
    ['minItems', true],
    ['uniqueItems', true],
    ['multipleOf', true],
    ['enum', false],
    ['maxProperties', false],
    ['minProperties', false],
    ['required', true],
    ['items', true],
    ['allOf', false],
    ['oneOf', false],
    ['anyOf', false],
    ['not', false],
    ['properties', true],
    ['additionalProperties', false],
    ['patternProperties', false],
    ['dependencies', false],
    ['additionalItems', false],
    ['definitions', false],
    ['externalDocs', true],
    ['example', true],
    ['nullable', false],
    [x('preserve-unknown-fields'), true],
    [x('embedded-resource'), false],
    [x('int-or-string'), false],
    [x('list-map-keys'), false],
    [x('list-type'), false],
    [x('map-type'), false],
    [x('validations'), true],
  ];
}

const allowedAtRoot =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

function isZero(v: unknown): boolean {
  return v === undefined || v === false || v === '' || v === 0 || v === null;
}

function statusRootErrors(profile: NamingProfile, schema: Raw, path: string): FieldError[] {
  for (const [name, allowed] of rootFields(profile)) {
    const value = schema[name];
    if (isZero(value)) continue;
    if (name === 'type') {
      if (value !== 'object')
        return [
          fieldError.invalid(
            child(path, 'openAPIV3Schema.type'),
            value,
            'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
          ),
        ];
      continue;
    }
    if (!allowed)
      return [
        fieldError.invalid(
          child(path, 'openAPIV3Schema'),
          new GoValueText('apiextensions.JSONSchemaProps{...}'),
          `only ${allowedAtRoot} fields are allowed at the root of the schema if the status subresource is enabled`,
        ),
      ];
  }
  return [];
}

/** Defaults must survive pruning and satisfy their own schema (including its rules). */
function defaultErrors(
  defs: DefinitionSet,
  node: SchemaNode,
  path: string,
  rules: ReadonlyMap<SchemaNode, readonly CompiledRule[]>,
): FieldError[] {
  const errs: FieldError[] = [];
  const visit = (s: SchemaNode, p: string): void => {
    if (s.default !== undefined) {
      const at = child(p, 'default');
      const pruned = deepClone(s.default);
      pruneValue(defs, s, pruned, s.embeddedResource === true);
      if (!deepEqual(pruned, s.default))
        errs.push(fieldError.invalid(at, s.default, 'must not have unknown fields'));
      else {
        const embedded =
          s.embeddedResource === true ? validateEmbeddedResources({ ...s }, s.default, at, false) : [];
        const values = embedded.length > 0 ? embedded : validateValue(s, s.default, at);
        if (values.length > 0) errs.push(...values);
        else
          errs.push(
            ...validateCelRules(rules, s, s.default, s.default).map((e) => ({
              ...e,
              field: e.field === '<nil>' ? at : `${at}.${e.field}`,
            })),
          );
      }
    }
    for (const [k, prop] of Object.entries(s.properties ?? {})) visit(prop, key(child(p, 'properties'), k));
    if (s.items !== undefined) visit(s.items, child(p, 'items'));
  };
  visit(node, path);
  return errs;
}

export interface VersionSchemaResult {
  errors: FieldError[];
  schema?: SchemaNode;
}

/** `path` is the version's `schema` path, e.g. `spec.versions[0].schema`. */
export function validateVersionSchema(
  profile: NamingProfile,
  defs: DefinitionSet,
  validation: unknown,
  statusEnabled: boolean,
  path: string,
): VersionSchemaResult {
  if (!isRaw(validation) || !isRaw(validation.openAPIV3Schema)) return { errors: [] };
  const raw = validation.openAPIV3Schema;
  const schemaPath = child(path, 'openAPIV3Schema');
  const errors: FieldError[] = [];
  if (statusEnabled) errors.push(...statusRootErrors(profile, raw, path));
  if (raw.nullable === true)
    errors.push(
      fieldError.forbidden(child(path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'),
    );
  const node = toSchemaNode(profile, raw);
  const structural = validateStructural(profile, raw, schemaPath);
  errors.push(...structural);
  const schemaErrors = checkOpenApiSchema(profile, raw, schemaPath);
  let compiled: ReturnType<typeof compileSchemaRules> | undefined;
  if (structural.length === 0) {
    compiled = schemaErrors.length === 0 ? compileSchemaRules(profile, node, schemaPath) : undefined;
    const defaults = defaultErrors(defs, node, schemaPath, compiled?.compiled ?? new Map());
    errors.push(...defaults);
    if (defaults.length > 0) compiled = undefined;
  }
  errors.push(...schemaErrors);
  if (compiled !== undefined) errors.push(...compiled.errors);
  return { errors, schema: node };
}
