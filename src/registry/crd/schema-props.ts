/**
 * Reads a CRD's `openAPIV3Schema` (JSONSchemaProps as JSON, markers spelled
 * by the naming profile) into the neutral `SchemaNode` the rest of the
 * server works with: validation, pruning, defaulting, CEL, apply and
 * OpenAPI all see the same nodes, so compiled rules can be keyed by node.
 * Input is expected to have passed CRD validation; anything malformed is
 * skipped rather than trusted.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import type { SchemaNode, SchemaType, ValidationRule } from '../../machinery/schema';

type Raw = Record<string, unknown>;

export function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const schemaTypes = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array']);

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

export function toSchemaNode(profile: NamingProfile, raw: Raw): SchemaNode {
  const x = (name: string): unknown => raw[profile.ext(name)];
  const node: SchemaNode = {};
  const type = str(raw.type);
  if (type !== undefined && schemaTypes.has(type)) node.type = type as SchemaType;
  const set = <K extends keyof SchemaNode>(key: K, value: SchemaNode[K] | undefined): void => {
    if (value !== undefined) node[key] = value;
  };
  set('format', str(raw.format));
  set('description', str(raw.description));
  set('title', str(raw.title));
  if (isRaw(raw.properties)) {
    const props: Record<string, SchemaNode> = {};
    for (const [k, v] of Object.entries(raw.properties)) if (isRaw(v)) props[k] = toSchemaNode(profile, v);
    node.properties = props;
  }
  set('required', strings(raw.required));
  if (isRaw(raw.items)) node.items = toSchemaNode(profile, raw.items);
  if (typeof raw.additionalProperties === 'boolean') node.additionalProperties = raw.additionalProperties;
  else if (isRaw(raw.additionalProperties))
    node.additionalProperties = toSchemaNode(profile, raw.additionalProperties);
  if ('default' in raw && raw.default !== undefined) node.default = raw.default as JsonValue;
  if (Array.isArray(raw.enum)) node.enum = raw.enum as JsonValue[];
  if (raw.nullable === true) node.nullable = true;
  const listType = str(x('list-type'));
  if (listType === 'atomic' || listType === 'set' || listType === 'map') node.listType = listType;
  set('listMapKeys', strings(x('list-map-keys')));
  const mapType = str(x('map-type'));
  if (mapType === 'atomic' || mapType === 'granular') node.mapType = mapType;
  if (x('int-or-string') === true) node.intOrString = true;
  if (x('preserve-unknown-fields') === true) node.preserveUnknownFields = true;
  if (x('embedded-resource') === true) node.embeddedResource = true;
  const validations = x('validations');
  if (Array.isArray(validations)) node.validations = validations.filter(isRaw).map(toValidationRule);
  set('maxItems', num(raw.maxItems));
  set('maxLength', num(raw.maxLength));
  set('maxProperties', num(raw.maxProperties));
  set('minItems', num(raw.minItems));
  set('minLength', num(raw.minLength));
  set('minProperties', num(raw.minProperties));
  set('minimum', num(raw.minimum));
  set('maximum', num(raw.maximum));
  if (raw.exclusiveMinimum === true) node.exclusiveMinimum = true;
  if (raw.exclusiveMaximum === true) node.exclusiveMaximum = true;
  set('multipleOf', num(raw.multipleOf));
  set('pattern', str(raw.pattern));
  if (raw.uniqueItems === true) node.uniqueItems = true;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = raw[key];
    if (Array.isArray(list)) node[key] = list.filter(isRaw).map((s) => toSchemaNode(profile, s));
  }
  if (isRaw(raw.not)) node.not = toSchemaNode(profile, raw.not);
  if (raw.example !== undefined) node.example = raw.example as JsonValue;
  if (isRaw(raw.externalDocs)) {
    const docs = raw.externalDocs as JsonObject;
    node.externalDocs = {
      ...(typeof docs.description === 'string' ? { description: docs.description } : {}),
      ...(typeof docs.url === 'string' ? { url: docs.url } : {}),
    };
  }
  return node;
}

function toValidationRule(raw: Raw): ValidationRule {
  const rule: ValidationRule = { rule: str(raw.rule) ?? '' };
  if (typeof raw.message === 'string') rule.message = raw.message;
  if (typeof raw.messageExpression === 'string') rule.messageExpression = raw.messageExpression;
  if (typeof raw.reason === 'string') rule.reason = raw.reason;
  if (typeof raw.fieldPath === 'string') rule.fieldPath = raw.fieldPath;
  return rule;
}

/** Nodes reachable through properties, items and additionalProperties (the structural part), parents first. */
export function* structuralNodes(node: SchemaNode): Generator<SchemaNode, void, undefined> {
  yield node;
  for (const child of Object.values(node.properties ?? {})) yield* structuralNodes(child);
  if (node.items !== undefined) yield* structuralNodes(node.items);
  if (typeof node.additionalProperties === 'object') yield* structuralNodes(node.additionalProperties);
}
