/**
 * `kubectl explain TYPE[.field…]`: a kind's schema from the server's
 * OpenAPI v3 documents (as kubectl v1.27 reads them by default), printed
 * with kubectl's plaintext template — KIND/VERSION (GROUP for named
 * groups), the field's type, description and fields, or the whole tree
 * with `--recursive`. The kind's schema is the one whose
 * `x-kubernetes-group-version-kind` names it.
 */

import type { Command } from '../command';
import { KubectlError, usageError } from '../errors';

type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  allOf?: Schema[];
  $ref?: string;
  description?: string;
};

interface Doc {
  components?: { schemas?: Record<string, Schema> };
}

function resolve(doc: Doc, schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  if (schema.$ref !== undefined) return doc.components?.schemas?.[schema.$ref.split('/').pop() as string];
  if (schema.allOf !== undefined && schema.allOf.length === 1 && schema.properties === undefined)
    return resolve(doc, schema.allOf[0]);
  return schema;
}

function typeName(doc: Doc, schema: Schema | undefined): string {
  if (schema === undefined) return 'Object';
  if (schema.items !== undefined) return `[]${typeName(doc, schema.items)}`;
  if (typeof schema.additionalProperties === 'object')
    return `map[string]${typeName(doc, schema.additionalProperties)}`;
  if (schema.allOf !== undefined && schema.allOf.length === 1 && schema.properties === undefined)
    return typeName(doc, schema.allOf[0]);
  if (schema.$ref !== undefined) {
    const name = schema.$ref.split('/').pop() as string;
    const target = doc.components?.schemas?.[name];
    if (target === undefined || target.type === undefined || target.type === 'object')
      return name.split('.').pop() as string;
    return typeName(doc, target);
  }
  if (schema.type !== undefined) return schema.type;
  return 'Object';
}

function descriptionLines(schema: Schema | undefined, indent: string): string {
  const d = schema?.description;
  if (d === undefined || d === '') return '';
  return d
    .split('\n')
    .map((l) => `${indent}${l}`)
    .join('\n');
}

function fieldsOf(doc: Doc, schema: Schema | undefined): Schema | undefined {
  let s = resolve(doc, schema);
  while (s !== undefined && (s.items !== undefined || typeof s.additionalProperties === 'object')) {
    s = resolve(doc, s.items ?? (s.additionalProperties as Schema));
  }
  return s;
}

function printFields(doc: Doc, schema: Schema, indent: string, recursive: boolean, seen: string[]): string {
  let out = '';
  const required = schema.required ?? [];
  for (const name of Object.keys(schema.properties ?? {}).sort()) {
    const field = (schema.properties as Record<string, Schema>)[name] as Schema;
    out += `${indent}${name}\t<${typeName(doc, field)}>${required.includes(name) ? ' -required-' : ''}\n`;
    if (recursive) {
      const type = typeName(doc, field);
      const nested = fieldsOf(doc, field);
      if (nested?.properties !== undefined && !seen.includes(type))
        out += printFields(doc, nested, indent + '  ', true, [...seen, type]);
    } else {
      const desc = descriptionLines(resolveFieldDescription(doc, field), `${indent}  `);
      out += `${desc === '' ? `${indent}  <no description>` : desc}\n\n`;
    }
  }
  return out;
}

function resolveFieldDescription(doc: Doc, field: Schema): Schema {
  return field.description !== undefined ? field : (resolve(doc, field) ?? field);
}

export const explainCommand: Command = {
  name: 'explain',
  short: 'Get documentation for a resource',
  flags: [
    { name: 'recursive', type: 'bool', noOptDefVal: 'true' },
    { name: 'api-version', type: 'string' },
    { name: 'output', type: 'string', default: 'plaintext' },
  ],
  async run(ctx) {
    if (ctx.args.length !== 1)
      throw usageError(
        ctx.path,
        'You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n',
      );
    const [resourceArg, ...fields] = (ctx.args[0] as string).split('.');
    const mapper = await ctx.f.mapper();
    let m = mapper.mappingFor(resourceArg as string);
    const apiVersion = ctx.flags.string('api-version');
    if (apiVersion !== '') {
      const [g, v] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
      const other = mapper.mappings.find(
        (x) => x.group === g && x.version === v && x.resource === m.resource,
      );
      if (other === undefined)
        throw new KubectlError(`error: couldn't find resource for "${g}/${v}, Resource=${m.resource}"`);
      m = other;
    }
    const client = await ctx.f.client();
    const index = (
      await client.send<{ paths: Record<string, { serverRelativeURL: string }> }>('GET', '/openapi/v3')
    ).body;
    const key = m.group === '' ? `api/${m.version}` : `apis/${m.group}/${m.version}`;
    const gvr = `${m.group}/${m.version}, Resource=${m.resource}`;
    const entry = index.paths[key];
    if (entry === undefined) throw new KubectlError(`error: couldn't find resource for "${gvr}"`);
    const doc = (await client.send<Doc>('GET', entry.serverRelativeURL)).body;
    const schemas = doc.components?.schemas ?? {};
    const kindSchema = Object.values(schemas).find((s) =>
      (
        (s['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]
      ).some((gvk) => gvk.group === m.group && gvk.version === m.version && gvk.kind === m.kind),
    );
    if (kindSchema === undefined) throw new KubectlError(`error: GVR (${gvr}) not found in OpenAPI schema`);
    let schema: Schema | undefined = kindSchema;
    let field: Schema | undefined;
    let fieldName = '';
    for (const name of fields) {
      const container = fieldsOf(doc, schema);
      const next = container?.properties?.[name];
      if (next === undefined) throw new KubectlError(`error: field "${name}" does not exist`);
      field = next;
      fieldName = name;
      schema = next;
    }
    let out = '';
    if (m.group !== '') out += `${'GROUP:'.padEnd(12)}${m.group}\n`;
    out += `${'KIND:'.padEnd(12)}${m.kind}\n`;
    out += `${'VERSION:'.padEnd(12)}${m.version}\n\n`;
    if (field !== undefined) out += `FIELD: ${fieldName} <${typeName(doc, field)}>\n\n`;
    const described = field !== undefined ? resolveFieldDescription(doc, field) : kindSchema;
    const desc = descriptionLines(described, '    ');
    out += `DESCRIPTION:\n${desc === '' ? '    <empty>' : desc}\n`;
    const container = fieldsOf(doc, schema);
    if (container?.properties !== undefined) {
      out += 'FIELDS:\n';
      out += printFields(doc, container, '  ', ctx.flags.bool('recursive'), [
        typeName(doc, field ?? kindSchema),
      ]);
    }
    ctx.out(out + '\n');
    return 0;
  },
};
