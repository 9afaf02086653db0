/**
 * How the schema shapes merging and ownership: every schema node resolves
 * to an atom — scalar, list (atomic, or associative: a set of scalars or a
 * map keyed by key fields) and/or map (a struct with declared fields and/or
 * a map of one element type; atomic or granular). The markers come from the
 * schema facts (`listType`, `listMapKeys`, `mapType`), with a merge patch
 * strategy counting as an associative list keyed by its merge key. Nodes
 * without a usable schema are `untyped` (everything atomic, like quantities
 * and int-or-strings) or `deduced` (objects without a schema: keys behave
 * as struct fields and every list is atomic).
 */

import type { JsonValue } from '../../api/meta';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../machinery/schema';
import { isPlainObject } from '../../machinery/json';
import { keyPE, valuePE, type KeyField, type PathElement } from '../path';

export type TypeRef = SchemaNode | 'deduced' | 'untyped';

export interface ListAtom {
  atomic: boolean;
  /** Key fields of an associative list of maps; empty for a set of scalars. */
  keys: readonly string[];
  element: TypeRef;
}

export interface MapAtom {
  atomic: boolean;
  /** Declared fields (struct); absent for a plain map. */
  fields?: Readonly<Record<string, TypeRef>>;
  /** Type of keys that are not declared fields; absent when only declared fields are allowed. */
  element?: TypeRef;
  /** Defaults of declared fields (used for associative keys the item omits). */
  defaults?: Readonly<Record<string, JsonValue>>;
}

export interface Atom {
  scalar?: true;
  list?: ListAtom;
  map?: MapAtom;
}

/** A structural problem in an object the schema cannot place (the real server's typed-value errors). */
export class TypedError extends Error {
  constructor(
    /** Path text of the place, e.g. `.spec.containers`. */
    readonly path: string,
    readonly detail: string,
  ) {
    super(path === '' ? detail : `${path}: ${detail}`);
  }
}

const untypedAtom: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], element: 'untyped' },
  map: { atomic: true, element: 'untyped' },
};
const deducedAtom: Atom = {
  scalar: true,
  list: { atomic: true, keys: [], element: 'deduced' },
  map: { atomic: false, element: 'deduced' },
};

const objectMetaRef = 'apimachinery.pkg.apis.meta.v1.ObjectMeta';

export class TypeResolver {
  private readonly cache = new WeakMap<SchemaNode, Atom>();

  constructor(readonly definitions: DefinitionSet) {}

  atom(ref: TypeRef): Atom {
    if (ref === 'untyped') return untypedAtom;
    if (ref === 'deduced') return deducedAtom;
    let a = this.cache.get(ref);
    if (a !== undefined) return a;
    const node = resolveSchema(this.definitions, ref);
    // Many properties refer to one definition: share its atom.
    a = (node !== undefined ? this.cache.get(node) : undefined) ?? this.build(node);
    this.cache.set(ref, a);
    if (node !== undefined) this.cache.set(node, a);
    return a;
  }

  private readonly roots = new WeakMap<SchemaNode, SchemaNode>();
  private unstructuredRoot: SchemaNode | undefined;

  /** The root of an object type: `metadata` is always ObjectMeta, as every kind's (custom resources' too) is. */
  root(root: SchemaNode | undefined): TypeRef {
    if (this.definitions[objectMetaRef] === undefined) return root ?? 'deduced';
    const metadata: SchemaNode = { ref: objectMetaRef };
    const resolved = resolveSchema(this.definitions, root);
    if (root === undefined || resolved === undefined)
      return (this.unstructuredRoot ??= {
        type: 'object',
        properties: { metadata },
        preserveUnknownFields: true,
      });
    let r = this.roots.get(root);
    if (r === undefined) {
      r = { ...resolved, properties: { ...(resolved.properties ?? {}), metadata } };
      this.roots.set(root, r);
    }
    return r;
  }

  private build(node: SchemaNode | undefined): Atom {
    if (node === undefined) return untypedAtom;
    const hasProps = node.properties !== undefined && Object.keys(node.properties).length > 0;
    if (node.type === 'array' || (node.type === undefined && node.items !== undefined))
      return { list: this.listAtom(node) };
    if (node.type === 'object' || hasProps || node.additionalProperties !== undefined) {
      const atomic = node.mapType === 'atomic';
      let element: TypeRef | undefined;
      if (isPlainObject(node.additionalProperties)) element = node.additionalProperties as SchemaNode;
      else if (node.additionalProperties === true) element = 'untyped';
      if (node.preserveUnknownFields === true) element ??= 'deduced';
      if (!hasProps && element === undefined)
        return node.mapType === 'granular' ? { map: { atomic: false, element: 'deduced' } } : untypedAtom;
      const map: MapAtom = { atomic };
      if (hasProps) {
        const fields: Record<string, TypeRef> = {};
        const defaults: Record<string, JsonValue> = {};
        for (const [name, prop] of Object.entries(node.properties ?? {})) {
          fields[name] = prop;
          const d = prop.default ?? resolveSchema(this.definitions, prop)?.default;
          if (d !== undefined) defaults[name] = d;
        }
        map.fields = fields;
        map.defaults = defaults;
      }
      if (element !== undefined) map.element = element;
      return { map };
    }
    if (node.preserveUnknownFields === true) return deducedAtom;
    if (node.intOrString === true || node.type === undefined) return untypedAtom;
    return { scalar: true };
  }

  private listAtom(node: SchemaNode): ListAtom {
    const element: TypeRef = node.items ?? 'untyped';
    if (node.listType === 'atomic') return { atomic: true, keys: [], element };
    if (node.listType === 'set') return { atomic: false, keys: [], element };
    if (node.listType === 'map') return { atomic: false, keys: node.listMapKeys ?? [], element };
    const strategies = (node.patchStrategy ?? '').split(',');
    if (strategies.includes('merge'))
      return { atomic: false, keys: node.patchMergeKey !== undefined ? [node.patchMergeKey] : [], element };
    return { atomic: true, keys: [], element };
  }

  /** The type of one key of a map: its declared field, else the element type. */
  fieldType(map: MapAtom, key: string): TypeRef | undefined {
    const f = map.fields !== undefined && Object.hasOwn(map.fields, key) ? map.fields[key] : undefined;
    return f ?? map.element;
  }

  isDeclaredField(map: MapAtom, key: string): boolean {
    return map.fields !== undefined && Object.hasOwn(map.fields, key);
  }

  /** The element naming one item of an associative list (its keys, defaults filled in; or its value for a set). */
  itemPE(list: ListAtom, item: JsonValue): PathElement {
    if (list.keys.length > 0) {
      if (item === null) throw new TypedError('', 'associative list with keys may not have a null element');
      if (!isPlainObject(item))
        throw new TypedError('', 'associative list with keys may not have non-map elements');
      const fields: KeyField[] = [];
      for (const name of list.keys) {
        if (Object.hasOwn(item, name)) {
          fields.push({ name, value: item[name] as JsonValue });
          continue;
        }
        const elementMap = this.atom(list.element).map;
        const def = elementMap?.defaults?.[name];
        if (def === undefined)
          throw new TypedError(
            '',
            `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`,
          );
        fields.push({ name, value: def });
      }
      return keyPE(fields);
    }
    if (isPlainObject(item))
      throw new TypedError('', "associative list without keys has an element that's a map type");
    if (Array.isArray(item))
      throw new TypedError('', 'not supported: associative list with lists as elements');
    if (item === null)
      throw new TypedError('', "associative list without keys has an element that's an explicit null");
    return valuePE(item);
  }
}

export type ValueShape = 'map' | 'list' | 'scalar' | 'null' | 'absent';

export function shapeOf(v: JsonValue | undefined): ValueShape {
  if (v === undefined) return 'absent';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  return 'scalar';
}

/** The one part of an atom that applies to a value; the whole atom when none does (null, absent, or a mismatch). */
export function deduceAtom(atom: Atom, v: JsonValue | undefined): Atom {
  const s = shapeOf(v);
  if (s === 'scalar' && atom.scalar) return { scalar: true };
  if (s === 'list' && atom.list !== undefined) return { list: atom.list };
  if (s === 'map' && atom.map !== undefined) return { map: atom.map };
  return atom;
}

export function sameAtom(a: Atom, b: Atom): boolean {
  return a.scalar === b.scalar && a.list === b.list && a.map === b.map;
}

/** Which handler an atom goes to: map first, then scalar, then list, as the real server dispatches. */
export function atomKind(a: Atom): 'map' | 'scalar' | 'list' | undefined {
  if (a.map !== undefined) return 'map';
  if (a.scalar) return 'scalar';
  if (a.list !== undefined) return 'list';
  return undefined;
}

export function asMap(v: JsonValue | undefined): Record<string, JsonValue> | undefined {
  return isPlainObject(v) ? (v as Record<string, JsonValue>) : undefined;
}

export function asList(v: JsonValue | undefined): JsonValue[] | undefined {
  return Array.isArray(v) ? v : undefined;
}
