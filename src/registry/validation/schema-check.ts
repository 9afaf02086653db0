/**
 * Checks an object against its schema facts in one walk: values of the
 * wrong type and missing required fields (422 causes), and the paths of
 * fields the schema does not know (for field validation, which warns about,
 * rejects or drops them). Unknown fields are removed in place when asked.
 */

import { fieldError, type FieldError } from '../../machinery/field-errors';
import { resolveSchemaOnce, type DefinitionSet, type SchemaNode } from '../../machinery/schema';

export interface SchemaFindings {
  errors: FieldError[];
  /** Paths of unknown fields, e.g. `spec.foo` or `spec.containers[0].bar`. */
  unknown: string[];
}

export interface SchemaCheckOptions {
  /** Remove unknown fields from the object while walking. */
  prune: boolean;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** Quantity is declared as a string but the real server also reads JSON numbers. */
function isQuantity(node: SchemaNode, ref: string | undefined): boolean {
  return ref !== undefined && ref.endsWith('api.resource.Quantity') && node.type === 'string';
}

/**
 * Definitions whose `required` list the real server never enforces: a
 * node agent's reports (Node status), where a missing field decodes to its
 * Go zero value and ValidateNode checks none of them.
 */
const zeroValueDefinitions = new Set([
  'api.core.v1.NodeSystemInfo',
  'api.core.v1.NodeAddress',
  'api.core.v1.NodeCondition',
  'api.core.v1.DaemonEndpoint',
  'api.core.v1.AttachedVolume',
]);

export function checkAgainstSchema(
  defs: DefinitionSet,
  root: SchemaNode,
  value: unknown,
  options: SchemaCheckOptions,
): SchemaFindings {
  const findings: SchemaFindings = { errors: [], unknown: [] };
  walk(defs, root, value, '', findings, options);
  return findings;
}

function walk(
  defs: DefinitionSet,
  raw: SchemaNode,
  value: unknown,
  path: string,
  out: SchemaFindings,
  options: SchemaCheckOptions,
): void {
  if (value === null || value === undefined) return;
  const node = resolveSchemaOnce(defs, raw);
  if (node === undefined) return;
  if (node.preserveUnknownFields === true && node.properties === undefined && node.type === undefined) return;
  const actual = typeOf(value);

  if (node.intOrString === true) {
    if (actual !== 'integer' && actual !== 'string') typeError(out, path, actual, 'integer or string');
    return;
  }
  if (isQuantity(node, raw.ref)) {
    if (actual !== 'string' && actual !== 'integer' && actual !== 'number')
      typeError(out, path, actual, 'string');
    return;
  }

  switch (node.type) {
    case 'string':
      if (actual !== 'string') typeError(out, path, actual, 'string');
      return;
    case 'integer':
      if (actual !== 'integer') typeError(out, path, actual, 'integer');
      return;
    case 'number':
      if (actual !== 'integer' && actual !== 'number') typeError(out, path, actual, 'number');
      return;
    case 'boolean':
      if (actual !== 'boolean') typeError(out, path, actual, 'boolean');
      return;
    case 'array': {
      if (actual !== 'array') {
        typeError(out, path, actual, 'array');
        return;
      }
      const items = node.items;
      if (items !== undefined)
        (value as unknown[]).forEach((item, i) => walk(defs, items, item, `${path}[${i}]`, out, options));
      return;
    }
    default:
      break;
  }
  if (node.type === 'object' || node.properties !== undefined || node.additionalProperties !== undefined) {
    if (actual !== 'object') {
      typeError(out, path, actual, 'object');
      return;
    }
    const obj = value as Record<string, unknown>;
    const props = node.properties;
    const required = raw.ref !== undefined && zeroValueDefinitions.has(raw.ref) ? [] : (node.required ?? []);
    for (const req of required) {
      if (obj[req] === undefined || obj[req] === null)
        out.errors.push(fieldError.required(join(path, req), ''));
    }
    const element = node.additionalProperties;
    // A map of plain strings (labels, a ConfigMap's data): a look at each value's type, no walk per key.
    if (props === undefined && element !== undefined && element !== true && element !== false) {
      const r = element.ref === undefined ? resolveSchemaOnce(defs, element) : undefined;
      if (r?.type === 'string' && r.intOrString !== true) {
        for (const key of Object.keys(obj)) {
          const v = obj[key];
          if (v !== null && v !== undefined && typeof v !== 'string')
            typeError(out, join(path, key), typeOf(v), 'string');
        }
        return;
      }
    }
    for (const key of Object.keys(obj)) {
      const child = props?.[key];
      const childPath = join(path, key);
      if (child !== undefined) {
        walk(defs, child, obj[key], childPath, out, options);
      } else if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
        if (node.additionalProperties !== true)
          walk(defs, node.additionalProperties, obj[key], childPath, out, options);
      } else if (props !== undefined && node.preserveUnknownFields !== true) {
        out.unknown.push(childPath);
        if (options.prune) delete obj[key];
      }
    }
  }
}

function typeError(out: SchemaFindings, path: string, actual: string, expected: string): void {
  const shown = actual === 'integer' ? 'number' : actual === 'array' ? 'array' : actual;
  out.errors.push(
    fieldError.typeInvalid(
      path,
      shown,
      `${path} in body must be of type ${expected}: ${JSON.stringify(shown)}`,
    ),
  );
}
