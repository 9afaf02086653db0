/**
 * The server's OpenAPI v3 documents as the editor's schema source:
 * `/openapi/v3` lists one document per group version, each holding the
 * schemas of its kinds (found by their group-version-kind marker, spelled
 * by whichever naming profile the server runs). Custom resources are
 * served the same way, so they get completion and validation too. Documents
 * are fetched once per page and cached; `$ref` and single-element `allOf`
 * wrappers are resolved on the way down.
 */

import type { ApiClient } from '../../../client/index';
import { PROFILES } from '../../../machinery/naming';

export interface SchemaNode {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  enum?: unknown[];
  $ref?: string;
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  [marker: `x-${string}`]: unknown;
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, SchemaNode> };
}

interface GroupVersionKindMarker {
  group?: string;
  version?: string;
  kind?: string;
}

/** A schema in its document, resolved: follow it down with `property` and `items`. */
export class SchemaCursor {
  readonly node: SchemaNode;

  constructor(
    private readonly document: OpenApiDocument,
    node: SchemaNode,
    /** The referenced schema's name, for type labels such as `[]Container`. */
    readonly refName?: string,
  ) {
    this.node = node;
  }

  static resolve(document: OpenApiDocument, node: SchemaNode): SchemaCursor {
    let current = node;
    let refName: string | undefined;
    for (let depth = 0; depth < 32; depth++) {
      if (current.$ref !== undefined) {
        const name = current.$ref.replace(/^#\/components\/schemas\//, '');
        const target = document.components?.schemas?.[name];
        const { $ref: _ref, ...rest } = current;
        refName = name;
        current = { ...(target ?? {}), ...rest };
        continue;
      }
      if (current.allOf !== undefined && current.allOf.length > 0) {
        const { allOf, ...rest } = current;
        // The generator wraps a reference in allOf to give it a default or description of its own.
        current = allOf.reduce<SchemaNode>((merged, part) => {
          const resolved = SchemaCursor.resolve(document, part);
          refName ??= resolved.refName;
          return {
            ...merged,
            ...resolved.node,
            properties: { ...merged.properties, ...resolved.node.properties },
          };
        }, rest);
        if (current.properties !== undefined && Object.keys(current.properties).length === 0)
          delete current.properties;
        continue;
      }
      break;
    }
    return new SchemaCursor(document, current, refName);
  }

  property(name: string): SchemaCursor | undefined {
    const child = this.node.properties?.[name];
    if (child !== undefined) return SchemaCursor.resolve(this.document, child);
    const extra = this.node.additionalProperties;
    if (typeof extra === 'object') return SchemaCursor.resolve(this.document, extra);
    return undefined;
  }

  items(): SchemaCursor | undefined {
    return this.node.items === undefined ? undefined : SchemaCursor.resolve(this.document, this.node.items);
  }

  alternatives(): SchemaCursor[] {
    return [...(this.node.oneOf ?? []), ...(this.node.anyOf ?? [])].map((n) =>
      SchemaCursor.resolve(this.document, n),
    );
  }

  /** A schema marker under either naming profile's spelling, e.g. `marker('int-or-string')`. */
  marker(name: string): unknown {
    return markerOf(this.node, name);
  }

  /** The JSON types a value may have here; undefined when anything goes. */
  acceptedTypes(): Set<string> | undefined {
    if (this.marker('int-or-string') === true || this.node.format === 'int-or-string')
      return new Set(['integer', 'string']);
    const alternatives = this.alternatives();
    if (alternatives.length > 0) {
      const union = new Set<string>();
      for (const alt of alternatives) {
        const types = alt.acceptedTypes();
        if (types === undefined) return undefined;
        for (const t of types) union.add(t);
      }
      return union;
    }
    if (this.node.type === undefined) {
      if (this.node.properties !== undefined || this.node.additionalProperties !== undefined)
        return new Set(['object']);
      return undefined;
    }
    return new Set([this.node.type]);
  }

  /** Whether unknown fields are kept (no pruning) rather than dropped with a warning. */
  keepsUnknownFields(): boolean {
    return this.marker('preserve-unknown-fields') === true || this.node.additionalProperties === true;
  }

  /** A short type label for completion: `string`, `[]Container`, `map[string]string`. */
  label(): string {
    const types = this.acceptedTypes();
    if (types?.has('array')) {
      const items = this.items();
      return `[]${items?.shortName() ?? items?.label() ?? 'any'}`;
    }
    if (
      types?.has('object') &&
      this.node.properties === undefined &&
      typeof this.node.additionalProperties === 'object'
    ) {
      return `map[string]${this.property('*')?.label() ?? 'any'}`;
    }
    if (types?.has('object')) return this.shortName() ?? 'object';
    if (types === undefined) return 'any';
    return [...types].join(' | ');
  }

  private shortName(): string | undefined {
    return this.refName?.split('.').at(-1);
  }
}

/** Schemas of the served kinds, read from the server's OpenAPI v3 documents on demand. */
export class OpenApiSchemas {
  private index: Promise<Map<string, string>> | undefined;
  private readonly documents = new Map<string, Promise<OpenApiDocument>>();

  constructor(private readonly client: ApiClient) {}

  /** The schema of `kind` in `apiVersion`, or undefined when the server publishes none. */
  async kindSchema(apiVersion: string, kind: string): Promise<SchemaCursor | undefined> {
    const slash = apiVersion.indexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const key = group === '' ? `api/${version}` : `apis/${group}/${version}`;
    const url = (await this.loadIndex()).get(key);
    if (url === undefined) return undefined;
    const document = await this.loadDocument(url);
    for (const schema of Object.values(document.components?.schemas ?? {})) {
      const markers = markerOf(schema, 'group-version-kind') as GroupVersionKindMarker[] | undefined;
      if (markers?.some((m) => (m.group ?? '') === group && m.version === version && m.kind === kind))
        return SchemaCursor.resolve(document, schema);
    }
    return undefined;
  }

  /** Forgets what was read (after custom resources changed). */
  reset(): void {
    this.index = undefined;
    this.documents.clear();
  }

  private loadIndex(): Promise<Map<string, string>> {
    this.index ??= this.client
      .send<{ paths?: Record<string, { serverRelativeURL?: string }> }>('GET', '/openapi/v3')
      .then(
        (answer) =>
          new Map(
            Object.entries(answer.body.paths ?? {}).map(([key, value]) => [
              key,
              value.serverRelativeURL ?? `/openapi/v3/${key}`,
            ]),
          ),
      );
    this.index.catch(() => (this.index = undefined));
    return this.index;
  }

  private loadDocument(url: string): Promise<OpenApiDocument> {
    let document = this.documents.get(url);
    if (document === undefined) {
      document = this.client.send<OpenApiDocument>('GET', url).then((answer) => answer.body);
      document.catch(() => this.documents.delete(url));
      this.documents.set(url, document);
    }
    return document;
  }
}

/** A marker of a schema node as either naming profile spells it (the editor serves both). */
function markerOf(node: object, name: string): unknown {
  const fields = node as Record<string, unknown>;
  return fields[PROFILES.orch.ext(name)] ?? fields[PROFILES.kubernetes.ext(name)];
}
