/**
 * Inline validation of the editor's YAML against what the server will
 * check: YAML syntax, a served apiVersion and kind (discovery), then the
 * kind's OpenAPI schema: value types (a ConfigMap's data values must be
 * strings), enum values, required fields, and unknown fields, which the
 * server drops with a Warning (or rejects under fieldValidation=Strict).
 */

import { isMap, isPair, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { DiscoveredGroupVersion } from '../../../client/index';
import type { OpenApiSchemas, SchemaCursor } from './openapi';

export interface Finding {
  from: number;
  to: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export interface ValidationDeps {
  schemas: OpenApiSchemas;
  groupVersions: DiscoveredGroupVersion[];
}

export async function validateYaml(text: string, deps: ValidationDeps): Promise<Finding[]> {
  const findings: Finding[] = [];
  const documents = parseAllDocuments(text);
  const nonEmpty = documents.filter((d) => d.contents !== null);
  for (const document of documents) {
    for (const error of document.errors)
      findings.push({
        from: error.pos[0],
        to: Math.max(error.pos[1], error.pos[0] + 1),
        severity: 'error',
        message: error.message,
      });
  }
  if (findings.length > 0) return findings;
  const extra = nonEmpty[1];
  if (extra?.contents?.range !== undefined)
    findings.push({
      from: extra.contents.range[0],
      to: extra.contents.range[1],
      severity: 'warning',
      message: 'Only the first document is sent: the API takes one object per request.',
    });
  const root = nonEmpty[0]?.contents;
  if (root === undefined || root === null) return findings;
  if (!isMap(root)) {
    findings.push({
      ...span(root),
      severity: 'error',
      message: 'Expected one object (a mapping with apiVersion, kind and metadata).',
    });
    return findings;
  }

  const apiVersionNode = root.get('apiVersion', true);
  const kindNode = root.get('kind', true);
  const apiVersion = isScalar(apiVersionNode) ? String(apiVersionNode.value) : undefined;
  const kind = isScalar(kindNode) ? String(kindNode.value) : undefined;
  if (apiVersion === undefined || kind === undefined) {
    findings.push({ from: 0, to: 1, severity: 'error', message: 'The object needs apiVersion and kind.' });
    return findings;
  }
  const gv = deps.groupVersions.find((g) => g.groupVersion === apiVersion);
  if (gv === undefined) {
    findings.push({
      ...span(apiVersionNode as Node),
      severity: 'error',
      message: `The server does not serve apiVersion ${apiVersion}.`,
    });
    return findings;
  }
  if (!gv.resources.some((r) => r.kind === kind)) {
    findings.push({
      ...span(kindNode as Node),
      severity: 'error',
      message: `apiVersion ${apiVersion} has no kind ${kind}.`,
    });
    return findings;
  }
  const schema = await deps.schemas.kindSchema(apiVersion, kind).catch(() => undefined);
  if (schema === undefined) {
    findings.push({
      ...span(kindNode as Node),
      severity: 'info',
      message: `The server publishes no schema for ${kind}; fields are not checked here.`,
    });
    return findings;
  }
  check(root, schema, '', findings);
  return findings;
}

function check(node: unknown, schema: SchemaCursor, path: string, findings: Finding[]): void {
  if (isScalar(node) && node.value === null) return; // null means unset
  const accepted = schema.acceptedTypes();
  const actual = typeOf(node);
  if (accepted !== undefined && actual !== undefined && !accepts(accepted, actual)) {
    findings.push({
      ...span(node as Node),
      severity: 'error',
      message: `${path || 'value'}: expected ${[...accepted].join(' or ')}, got ${actual}${accepted.has('string') && actual !== 'object' && actual !== 'array' ? ' (quote it to make it a string)' : ''}`,
    });
    return;
  }
  if (isScalar(node) && schema.node.enum !== undefined && !schema.node.enum.includes(node.value)) {
    findings.push({
      ...span(node),
      severity: 'error',
      message: `${path}: ${String(node.value)} is not one of ${schema.node.enum.map(String).join(', ')}`,
    });
  }
  if (isMap(node)) {
    const present = new Set<string>();
    for (const pair of node.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const key = String(pair.key.value);
      present.add(key);
      const childPath = `${path}.${key}`;
      const child = schema.property(key);
      if (child === undefined) {
        if (schema.node.properties !== undefined && !schema.keepsUnknownFields())
          findings.push({
            ...span(pair.key as Node),
            severity: 'warning',
            message: `unknown field "${childPath.slice(1)}": the server drops it (with fieldValidation=Strict it refuses the object)`,
          });
        continue;
      }
      check(pair.value, child, childPath, findings);
    }
    for (const name of schema.node.required ?? []) {
      if (!present.has(name))
        findings.push({
          from: node.range?.[0] ?? 0,
          to: (node.range?.[0] ?? 0) + 1,
          severity: 'error',
          message: `${path || 'object'}: missing required field "${name}"`,
        });
    }
  } else if (isSeq(node)) {
    const items = schema.items();
    if (items === undefined) return;
    node.items.forEach((item, index) => check(item, items, `${path}[${index}]`, findings));
  }
}

function typeOf(node: unknown): string | undefined {
  if (isMap(node)) return 'object';
  if (isSeq(node)) return 'array';
  if (!isScalar(node)) return undefined;
  const value = node.value;
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return undefined;
}

function accepts(accepted: Set<string>, actual: string): boolean {
  return accepted.has(actual) || (actual === 'integer' && accepted.has('number'));
}

function span(node: Node): { from: number; to: number } {
  const [from = 0, to = from + 1] = node.range ?? [];
  return { from, to: Math.max(to, from + 1) };
}
