/**
 * Patch metadata from schema facts: for a field of a struct, its value's
 * schema and its `patchStrategy` / `patchMergeKey` markers. This mirrors how
 * the real server reads the markers from the Go struct tags of the kind,
 * including its errors for fields the struct does not have (which a typed
 * original can only meet through a raw-JSON field or a directive naming a
 * field that does not exist).
 */

import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../machinery/schema';
import { unexpected } from './errors';

export interface PatchMeta {
  /** `patchStrategy` split on commas, e.g. `['merge', 'retainKeys']`. */
  strategies: string[];
  mergeKey: string;
}

type Shape = 'struct' | 'map' | 'slice' | 'string' | 'int64' | 'float64' | 'bool' | 'interface';

/** A position in the schema: the schema of some value being merged. */
export class PatchSchema {
  private readonly node: SchemaNode | undefined;
  private readonly name: string;

  constructor(
    private readonly defs: DefinitionSet,
    node: SchemaNode | undefined,
  ) {
    this.node = resolveSchema(defs, node);
    this.name = node?.ref?.split('.').pop() ?? '';
  }

  /** The Go kind of the value's type, which the real server names in some messages. */
  shape(): Shape {
    const n = this.node;
    if (n === undefined) return 'interface';
    if (n.properties !== undefined) return 'struct';
    if (n.additionalProperties !== undefined && n.additionalProperties !== false) return 'map';
    if (n.intOrString === true) return 'struct';
    switch (n.type) {
      case 'array':
        return 'slice';
      case 'string':
        return 'string';
      case 'integer':
        return 'int64';
      case 'number':
        return 'float64';
      case 'boolean':
        return 'bool';
      case 'object':
        return 'struct'; // a raw-JSON field: a struct with no JSON fields
      default:
        return 'interface';
    }
  }

  /** Metadata of field `key` of a struct, or of the values of a map. */
  forStruct(key: string): { schema: PatchSchema; meta: PatchMeta } {
    const n = this.node;
    const shape = this.shape();
    if (shape === 'map') {
      const value = n?.additionalProperties;
      return {
        schema: new PatchSchema(this.defs, typeof value === 'object' ? value : undefined),
        meta: { strategies: [], mergeKey: '' },
      };
    }
    if (shape !== 'struct')
      throw unexpected(`merging an object in json but data type is not map or struct, instead is: ${shape}`);
    const field = n?.properties?.[key];
    if (field === undefined || !Object.hasOwn(n?.properties ?? {}, key)) {
      throw unexpected(
        `unable to find api field in struct ${this.name} for the json field ${JSON.stringify(key)}`,
      );
    }
    const strategies =
      field.patchStrategy === undefined || field.patchStrategy === '' ? [] : field.patchStrategy.split(',');
    return {
      schema: new PatchSchema(this.defs, field),
      meta: { strategies, mergeKey: field.patchMergeKey ?? '' },
    };
  }

  /** Metadata of list field `key`, with the schema of its elements. */
  forSlice(key: string): { schema: PatchSchema; meta: PatchMeta } {
    const { schema, meta } = this.forStruct(key);
    if (schema.shape() !== 'slice')
      throw unexpected(`expected slice or array type, but got: ${this.shape()}`);
    const items = schema.node?.items;
    const element = new PatchSchema(this.defs, items);
    if (element.shape() === 'slice') throw unexpected('unexpected slice of slice');
    return { schema: element, meta };
  }

  /** How messages name this schema's type (its Go kind). */
  kindName(): string {
    return this.shape();
  }
}

/** Splits strategies into the retainKeys flag and the one merge strategy, rejecting other combinations as the real server does. */
export function retainKeysStrategy(strategies: readonly string[]): { retainKeys: boolean; strategy: string } {
  if (strategies.length === 0) return { retainKeys: false, strategy: '' };
  if (strategies.length === 1)
    return strategies[0] === 'retainKeys'
      ? { retainKeys: true, strategy: '' }
      : { retainKeys: false, strategy: strategies[0] ?? '' };
  if (strategies.length === 2) {
    if (strategies[0] === 'retainKeys') return { retainKeys: true, strategy: strategies[1] ?? '' };
    if (strategies[1] === 'retainKeys') return { retainKeys: true, strategy: strategies[0] ?? '' };
  }
  throw unexpected(`unexpected patch strategy: [${strategies.join(' ')}]`);
}
