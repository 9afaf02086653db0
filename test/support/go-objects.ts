/**
 * Objects as a Go client holds and sends them, for the protobuf round-trip
 * tests and the bench: `goJson` gives the JSON that Go's `json.Marshal`
 * writes for an object of a built-in kind (plain fields without
 * `omitempty` always present, plain `omitempty` scalars only when not zero,
 * pointers whenever set, plain structs always present), and `randomGoObject`
 * builds such an object from the schema facts with a seeded generator:
 * zero values, explicit pointer zeros, nested lists and maps. It walks the
 * schema, not the protobuf descriptor, so it checks the decoder
 * independently; both share only the Go pointer facts.
 */

import goPointers from '../../src/registry/generated/go-pointers.json';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../../src/machinery/schema';

type Json = Record<string, unknown>;

const pointerFacts: Record<string, readonly string[] | undefined> = goPointers;

const special = {
  time: 'apimachinery.pkg.apis.meta.v1.Time',
  microTime: 'apimachinery.pkg.apis.meta.v1.MicroTime',
  quantity: 'apimachinery.pkg.api.resource.Quantity',
  intOrString: 'apimachinery.pkg.util.intstr.IntOrString',
  raw: 'apimachinery.pkg.runtime.RawExtension',
  fields: 'apimachinery.pkg.apis.meta.v1.FieldsV1',
  json: 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON',
  orArray: 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray',
  orBool: 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool',
  orStringArray: 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray',
};
const specialRefs = new Set<string>(Object.values(special));

type Presence = 'pointer' | 'always' | 'nonZero';

function isScalar(node: SchemaNode): boolean {
  return node.ref === undefined && ['string', 'integer', 'number', 'boolean'].includes(node.type ?? '');
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function zeroOf(node: SchemaNode): unknown {
  return node.type === 'string' ? '' : node.type === 'boolean' ? false : 0;
}

function presenceOf(def: string, name: string, prop: SchemaNode, required: boolean): Presence {
  if (prop.default !== undefined) return isZero(prop.default) ? 'always' : 'nonZero';
  if (required || pointerFacts[def]?.includes(name) === true) return 'pointer';
  return 'nonZero';
}

function isPlainStruct(prop: SchemaNode): boolean {
  const d = prop.default;
  return prop.ref !== undefined && typeof d === 'object' && d !== null && !Array.isArray(d);
}

/** A plain struct's zero value as Go marshals it; undefined where it marshals as null. */
function plainZero(defs: DefinitionSet, ref: string): unknown {
  if (ref === special.quantity) return '0';
  if (ref === special.intOrString) return 0;
  if (specialRefs.has(ref)) return undefined;
  return goJson(defs, {}, ref);
}

/** The JSON that Go writes for `value`, an object of definition `ref` (nulls and unknown fields dropped). */
export function goJson(defs: DefinitionSet, value: Json, ref: string): Json {
  const def = defs[ref];
  const out: Json = {};
  if (def?.properties === undefined) return value;
  const required = new Set(def.required ?? []);
  for (const [name, prop] of Object.entries(def.properties)) {
    const v = value[name];
    if (isScalar(prop)) {
      const presence = presenceOf(ref, name, prop, required.has(name));
      if (prop.format === 'byte') {
        if (typeof v === 'string' && v !== '') out[name] = v;
      } else if (v === undefined || v === null) {
        if (presence === 'always') out[name] = zeroOf(prop);
      } else if (presence !== 'nonZero' || !isZero(v)) out[name] = v;
      continue;
    }
    if (prop.ref !== undefined) {
      if (v === undefined || v === null) {
        if (isPlainStruct(prop)) {
          const zero = plainZero(defs, prop.ref);
          if (zero !== undefined) out[name] = zero;
        }
      } else out[name] = nested(defs, v, prop);
      continue;
    }
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      if (v.length > 0) out[name] = v.map((item: unknown) => nested(defs, item, prop.items));
    } else if (typeof v === 'object') {
      const entries = Object.entries(v as Json);
      const element = typeof prop.additionalProperties === 'object' ? prop.additionalProperties : undefined;
      if (entries.length > 0)
        out[name] = Object.fromEntries(entries.map(([k, x]) => [k, nested(defs, x, element)]));
    } else out[name] = v;
  }
  // A kind's type meta is not a field of its message: the envelope carries it.
  if ((def.gvk?.length ?? 0) > 0)
    for (const k of ['apiVersion', 'kind']) if (typeof value[k] === 'string') out[k] = value[k];
  return out;
}

function nested(defs: DefinitionSet, v: unknown, node: SchemaNode | undefined): unknown {
  if (node?.ref === undefined || specialRefs.has(node.ref)) return v;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  return goJson(defs, v as Json, node.ref);
}

/** A small seeded generator (mulberry32): the same seed gives the same objects. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenerateOptions {
  random: () => number;
  /** How deep nested structs go before optional ones are left out. */
  maxDepth?: number;
}

/**
 * A random object of definition `ref` in Go's JSON form: each pointer scalar
 * absent, zero or set; each plain one zero or set (and then left out when
 * zero and `omitempty`); lists and maps of one or two entries.
 */
export function randomGoObject(defs: DefinitionSet, ref: string, options: GenerateOptions): Json {
  const raw = generate(defs, { ref }, [], options, false) as Json;
  return goJson(defs, raw, ref);
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function scalarValue(node: SchemaNode, random: () => number): unknown {
  switch (node.type) {
    case 'string':
      if (node.format === 'byte') return pick(random, ['aGVsbG8=', 'AAEC']);
      return pick(random, ['', 'a', 'zz-9', 'Value with spaces']);
    case 'integer':
      return pick(random, [0, 1, 7, 30000, -2]);
    case 'number':
      return pick(random, [0, 1.5, 3]);
    default:
      return pick(random, [false, true]);
  }
}

function specialValue(ref: string, random: () => number, plain: boolean): unknown {
  switch (ref) {
    case special.time:
      return plain && random() < 0.3 ? undefined : '2024-01-02T03:04:05Z';
    case special.microTime:
      return '2024-01-02T03:04:05.123456Z';
    case special.quantity:
      return pick(random, ['0', '1', '500m', '2Gi']);
    case special.intOrString:
      return pick(random, [0, 8080, 'http', '25%']);
    case special.raw:
      return { kind: 'Thing', n: 1 };
    case special.fields:
      return { 'f:spec': { 'f:replicas': {} } };
    case special.json:
      return { x: [1, 'a'] };
    case special.orArray:
      return { type: 'string' };
    case special.orBool:
      return pick(random, [true, false]);
    default:
      return ['a', 'b'];
  }
}

function generate(
  defs: DefinitionSet,
  node: SchemaNode,
  stack: string[],
  options: GenerateOptions,
  nestedKind: boolean,
): unknown {
  const { random } = options;
  if (node.ref !== undefined) {
    if (specialRefs.has(node.ref)) return specialValue(node.ref, random, true);
    if (stack.includes(node.ref) || stack.length > (options.maxDepth ?? 8)) return undefined;
    const def = resolveSchema(defs, { ref: node.ref });
    if (def?.properties === undefined) return {};
    const out: Json = {};
    const required = new Set(def.required ?? []);
    const isKind = (defs[node.ref]?.gvk?.length ?? 0) > 0;
    for (const [name, prop] of Object.entries(def.properties)) {
      if ((name === 'apiVersion' || name === 'kind') && isKind) {
        if (!nestedKind) continue;
        continue;
      }
      if (isScalar(prop)) {
        const presence = presenceOf(node.ref, name, prop, required.has(name));
        const r = random();
        if (presence === 'pointer' && r < 0.3) continue;
        // Pointers get explicit zeros often; plain fields are zero (and so left out or written as zero) as often.
        out[name] = r < 0.6 ? zeroOf(prop) : scalarValue(prop, random);
        if (prop.format === 'byte') out[name] = scalarValue(prop, random);
        continue;
      }
      if (prop.ref !== undefined) {
        if (!isPlainStruct(prop) && random() < 0.4) continue;
        const v = generate(defs, prop, [...stack, node.ref], options, true);
        if (v !== undefined) out[name] = v;
        continue;
      }
      if (random() < 0.35) continue;
      if (prop.type === 'array' && prop.items !== undefined) {
        const items: unknown[] = [];
        const n = 1 + Math.floor(random() * 2);
        for (let i = 0; i < n; i++) {
          const item = itemValue(defs, prop.items, [...stack, node.ref], options);
          if (item !== undefined) items.push(item);
        }
        if (items.length > 0) out[name] = items;
      } else if (typeof prop.additionalProperties === 'object') {
        const v = itemValue(defs, prop.additionalProperties, [...stack, node.ref], options);
        if (v !== undefined) out[name] = random() < 0.5 ? { k: v } : { k: v, 'other.key/x': v };
      }
    }
    return out;
  }
  return isScalar(node) ? scalarValue(node, random) : undefined;
}

function itemValue(
  defs: DefinitionSet,
  node: SchemaNode,
  stack: string[],
  options: GenerateOptions,
): unknown {
  if (node.ref !== undefined && specialRefs.has(node.ref))
    return specialValue(node.ref, options.random, false);
  if (node.type === 'array' && node.items !== undefined) {
    const inner = itemValue(defs, node.items, stack, options);
    return inner === undefined ? undefined : [inner];
  }
  if (node.ref !== undefined) return generate(defs, node, stack, options, true);
  if (node.type === 'string')
    return node.format === 'byte'
      ? pick(options.random, ['aGVsbG8=', ''])
      : pick(options.random, ['x', 'y y', '']);
  return isScalar(node) ? scalarValue(node, options.random) : undefined;
}
