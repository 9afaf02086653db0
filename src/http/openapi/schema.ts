/**
 * Renders the neutral schema facts (`SchemaNode`, `Definition`) as OpenAPI
 * schema objects of either flavor — Swagger 2.0 (`#/definitions/...`,
 * `$ref` with siblings) or OpenAPI 3 (`#/components/schemas/...`, a `$ref`
 * with siblings wrapped in `allOf`) — under the active profile: definition
 * names get `profile.definitionPrefix`, markers become `x-<word>-*`
 * extensions, and group/version/kinds carry the profile's group names.
 * Every definition a rendered schema refers to is recorded, so documents
 * can include exactly the closure they need.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import type { Definition, DefinitionSet, SchemaNode } from '../../machinery/schema';

export type Flavor = 'v2' | 'v3';

const quantityDefinition = 'apimachinery.pkg.api.resource.Quantity';

export interface GroupVersionKindJson {
  group: string;
  version: string;
  kind: string;
}

export class SchemaRenderer {
  constructor(
    readonly profile: NamingProfile,
    readonly flavor: Flavor,
    readonly definitions: DefinitionSet,
  ) {}

  /** The published name of a neutral definition name, e.g. `io.orch.api.apps.v1.Deployment`. */
  publishedName(neutral: string): string {
    return `${this.profile.definitionPrefix}${neutral}`;
  }

  refTo(neutral: string): string {
    return `${this.flavor === 'v2' ? '#/definitions/' : '#/components/schemas/'}${this.publishedName(neutral)}`;
  }

  ext(name: string): string {
    return this.profile.ext(name);
  }

  /** A schema node; `used` collects the neutral names of the definitions it refers to. */
  render(node: SchemaNode, used: Set<string>): JsonObject {
    if (node.ref !== undefined) {
      used.add(node.ref);
      const { ref, ...rest } = node;
      const siblings = this.render(rest, used);
      const target = { $ref: this.refTo(ref) };
      if (this.flavor === 'v2') return { ...siblings, ...target };
      return Object.keys(siblings).length === 0 ? target : { allOf: [target], ...siblings };
    }
    const out: JsonObject = {};
    if (node.intOrString === true && node.type === undefined) {
      if (this.flavor === 'v3') out.oneOf = [{ type: 'integer' }, { type: 'string' }];
      else out.type = 'string';
    }
    if (node.description !== undefined) out.description = node.description;
    if (node.type !== undefined) out.type = node.type;
    if (node.format !== undefined) out.format = node.format;
    if (node.title !== undefined) out.title = node.title;
    if (node.properties !== undefined) {
      const props: JsonObject = {};
      for (const [name, child] of Object.entries(node.properties))
        props[this.propertyName(name)] = this.render(child, used);
      out.properties = props;
    }
    if (node.required !== undefined && node.required.length > 0)
      out.required = node.required.map((r) => this.propertyName(r));
    if (node.items !== undefined) out.items = this.render(node.items, used);
    if (node.additionalProperties !== undefined) {
      out.additionalProperties =
        typeof node.additionalProperties === 'boolean'
          ? node.additionalProperties
          : this.render(node.additionalProperties, used);
    }
    if (node.default !== undefined) out.default = node.default;
    if (node.enum !== undefined) out.enum = node.enum;
    this.renderValueValidations(node, out, used);
    if (node.nullable === true && this.flavor === 'v3') out.nullable = true;
    if (node.listType !== undefined) out[this.ext('list-type')] = node.listType;
    if (node.listMapKeys !== undefined) out[this.ext('list-map-keys')] = node.listMapKeys;
    if (node.mapType !== undefined) out[this.ext('map-type')] = node.mapType;
    if (node.patchMergeKey !== undefined) out[this.ext('patch-merge-key')] = node.patchMergeKey;
    if (node.patchStrategy !== undefined) out[this.ext('patch-strategy')] = node.patchStrategy;
    // The IntOrString definition says so by its format; schemas of custom resources carry the marker.
    if (node.intOrString === true && node.format !== 'int-or-string') out[this.ext('int-or-string')] = true;
    if (node.preserveUnknownFields === true) out[this.ext('preserve-unknown-fields')] = true;
    if (node.embeddedResource === true) out[this.ext('embedded-resource')] = true;
    return out;
  }

  /** The value validations custom resource schemas carry; anyOf/oneOf/not and rules exist in OpenAPI 3 only. */
  private renderValueValidations(node: SchemaNode, out: JsonObject, used: Set<string>): void {
    for (const k of [
      'maximum',
      'exclusiveMaximum',
      'minimum',
      'exclusiveMinimum',
      'maxLength',
      'minLength',
      'pattern',
      'maxItems',
      'minItems',
      'uniqueItems',
      'multipleOf',
      'maxProperties',
      'minProperties',
    ] as const) {
      const v = node[k];
      if (v !== undefined) out[k] = v;
    }
    if (node.example !== undefined) out.example = node.example;
    if (node.externalDocs !== undefined) out.externalDocs = node.externalDocs;
    if (node.allOf !== undefined) out.allOf = node.allOf.map((s) => this.render(s, used));
    if (this.flavor !== 'v3') return;
    if (node.anyOf !== undefined) out.anyOf = node.anyOf.map((s) => this.render(s, used));
    if (node.oneOf !== undefined) out.oneOf = node.oneOf.map((s) => this.render(s, used));
    if (node.not !== undefined) out.not = this.render(node.not, used);
    if (node.validations !== undefined)
      out[this.ext('validations')] = node.validations.map((r) => ({ ...r })) as unknown as JsonValue;
  }

  /** Properties that are schema markers themselves (JSONSchemaProps) are spelled by the profile. */
  private propertyName(name: string): string {
    const marker = /^x-[a-z]+-(.+)$/.exec(name);
    return marker?.[1] !== undefined ? this.ext(marker[1]) : name;
  }

  /** A whole definition, with its group/version/kinds. */
  renderDefinition(name: string, def: Definition, used: Set<string>): JsonObject {
    const { gvk, ...node } = def;
    const out = name === quantityDefinition ? this.quantity() : this.render(node, used);
    if (gvk !== undefined && gvk.length > 0)
      out[this.ext('group-version-kind')] = gvk.map((g) => this.gvkJson(g)) as unknown as JsonValue;
    return out;
  }

  gvkJson(g: {
    group: string;
    groupSuffixed?: boolean;
    version: string;
    kind: string;
  }): GroupVersionKindJson {
    return {
      group: g.groupSuffixed === true ? this.profile.suffixed(g.group) : g.group,
      kind: g.kind,
      version: g.version,
    };
  }

  /** Quantity's facts carry no type; on the wire it is a string (or, in v3, a number). */
  private quantity(): JsonObject {
    return this.flavor === 'v2' ? { type: 'string' } : { oneOf: [{ type: 'string' }, { type: 'number' }] };
  }
}
