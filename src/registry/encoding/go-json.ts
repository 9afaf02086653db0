/**
 * Objects shaped as the real server's Go encoder writes them, for every
 * JSON (and YAML) answer: a built-in kind's fields in its Go struct's order
 * at every depth (`registry/go-field-order.ts`), map keys
 * sorted (Go sorts map keys), and the zero values Go writes for fields that
 * are neither pointers nor `omitempty` scalars — `creationTimestamp: null`
 * in a template's metadata, `status: {}`, `lastProbeTime: null`,
 * `reportingComponent: ""` (the definitions' zero defaults say which).
 * A custom resource is an unstructured map to the real server, so its keys
 * are sorted at every depth, metadata included. An embedded object (a Table
 * row's object, a watch event's) is shaped by its own kind; any other raw
 * value (RawExtension data, a schema's `default`) goes out as written.
 *
 * Shaping makes a new object and never changes its input, which is often a
 * stored object shared with other readers. Values with no kind, and kinds of
 * the server's own groups that have no facts, go out unchanged.
 */

import { knownToBeWide, rememberWide, slicedAbove } from '../../machinery/json';
import type { Definition, DefinitionSet, SchemaNode } from '../../machinery/schema';
import type { NamingProfile } from '../../machinery/naming';
import { builtInDefinitions, builtInRegistry, onBuiltInDefinitionsAdded } from '../builtins';
import { profileDefinitions } from '../crd/definitions';
import { goFieldOrder } from '../go-field-order';

type Obj = Record<string, unknown>;

/** How a value of one schema position is shaped. */
type Shape =
  | { k: 'leaf' }
  | { k: 'struct'; def: string }
  | { k: 'list'; of: Shape }
  | { k: 'map'; of: Shape }
  /** RawExtension: an object that names its kind is shaped as that kind; anything else is raw. */
  | { k: 'embedded' }
  /** JSONSchemaPropsOrBool / OrArray / OrStringArray: a schema object, or a bool or list as written. */
  | { k: 'schemaOr' };

interface FieldPlan {
  name: string;
  shape: Shape;
  /** The value Go writes when the field is unset (only for fields Go always writes). */
  zero?: unknown;
}

interface StructPlan {
  fields: FieldPlan[];
  known: ReadonlySet<string>;
}

const leaf: Shape = { k: 'leaf' };
const META = 'apimachinery.pkg.apis.meta.v1.';
const JSON_SCHEMA_PROPS = 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';

/** Types whose JSON form is a scalar or raw JSON, with what Go writes for their zero value. */
const leafTypes: Readonly<Record<string, unknown>> = {
  [`${META}Time`]: null,
  [`${META}MicroTime`]: null,
  [`${META}FieldsV1`]: null,
  'apimachinery.pkg.util.intstr.IntOrString': 0,
  'apimachinery.pkg.api.resource.Quantity': '0',
  'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': null,
};
const RAW_EXTENSION = 'apimachinery.pkg.runtime.RawExtension';
const schemaOrTypes = new Set([
  `${JSON_SCHEMA_PROPS}OrArray`,
  `${JSON_SCHEMA_PROPS}OrBool`,
  `${JSON_SCHEMA_PROPS}OrStringArray`,
]);

/**
 * Groups the server itself speaks in besides those of its resources: a kind
 * of one of these without facts (AdmissionReview, an audit Event, aggregated
 * discovery) is the server's own, not a custom resource, and goes out as built.
 */
const ownGroupsWithoutResources = ['admission', 'apidiscovery', 'audit', 'imagepolicy', 'apiserver'];

function isZeroScalar(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's map key order: byte order of the UTF-8 keys, which is code point order. */
function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

const surrogate = /[\uD800-\uDFFF]/;

/**
 * An object's keys in Go's order. Without surrogate pairs, code point order is the UTF-16 order that the
 * native comparison and `sort()` use, so a wide map (100,000 keys) is checked and sorted natively rather than
 * through a JavaScript comparator called ~n·log n times.
 */
function sortedKeys(o: Obj): string[] {
  return sortKeys(Object.keys(o));
}

function sortKeys(keys: string[]): string[] {
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (surrogate.test(key)) return sortedByCodePoint(keys);
    if (sorted && i > 0 && (keys[i - 1] as string) > key) sorted = false;
  }
  return sorted ? keys : keys.sort();
}

/** An array index key, which any JavaScript object lists first, in numeric order, whatever the insertion order. */
function isIndexKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

/**
 * The keys of a map of scalars in the order of the map the shaper would build from it: Go's order, except
 * that array-index keys come first in numeric order (as in any JavaScript object; `Object.keys` lists them
 * first already, so they are the map's leading keys).
 */
function shapedMapKeys(o: object): string[] {
  const keys = Object.keys(o);
  let indexKeys = 0;
  while (indexKeys < keys.length && isIndexKey(keys[indexKeys] as string)) indexKeys++;
  const rest = sortKeys(keys.slice(indexKeys));
  return indexKeys === 0 ? rest : [...keys.slice(0, indexKeys), ...rest];
}

function sortedByCodePoint(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++)
    if (byCodePoint(keys[i - 1] as string, keys[i] as string) > 0) return keys.sort(byCodePoint);
  return keys;
}

/** A custom resource (an unstructured map): keys sorted at every depth. */
export function sortedDeep(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedDeep);
  const out: Obj = {};
  for (const k of sortedKeys(value as Obj)) {
    const v = (value as Obj)[k];
    if (v !== undefined) out[k] = sortedDeep(v);
  }
  return out;
}

export class GoJson {
  private readonly plans = new Map<string, StructPlan>();
  private readonly zeroValues = new Map<string, unknown>();
  /** `apiVersion|kind` → definition. */
  private readonly kinds = new Map<string, string>();
  private readonly ownGroups = new Set<string>(['']);

  /**
   * `zeros: false` orders fields without adding the zero values Go writes: for copies of stored objects that are
   * read back as stored (the state export), where an added `creationTimestamp: null` would change the object.
   */
  constructor(
    private readonly profile: NamingProfile,
    private readonly definitions: DefinitionSet,
    private readonly zeros = true,
  ) {
    this.indexKinds(definitions);
    for (const g of builtInRegistry.groups)
      this.ownGroups.add(g.suffixed ? profile.suffixed(g.name) : g.name);
    for (const g of ownGroupsWithoutResources) this.ownGroups.add(profile.suffixed(g));
  }

  /**
   * Maps the kinds of `definitions` (the constructor's, or those added to them later: the built-in definitions'
   * lazy part) to their definitions. No kind has definitions in both parts (generated.test.ts), so the order
   * in which parts are indexed decides no owner.
   */
  indexKinds(definitions: DefinitionSet): void {
    for (const [name, def] of Object.entries(definitions))
      for (const g of def.gvk ?? []) {
        const group = g.groupSuffixed === true ? this.profile.suffixed(g.group) : g.group;
        this.ownGroups.add(group);
        const versions =
          group === this.profile.metaGroup && g.version === 'v1' ? ['v1', 'v1beta1'] : [g.version];
        for (const v of versions) {
          const key = `${group === '' ? v : `${group}/${v}`}|${g.kind}`;
          if (!this.kinds.has(key)) this.kinds.set(key, name);
        }
      }
  }

  /** Set while `shapeForSlicedText` runs: the wide maps of scalars left as they are, to be written in order. */
  private deferred: Set<object> | undefined;

  /**
   * `shape` for the sliced encoder (machinery/json-text.ts): a wide map of scalars (a 100,000-key ConfigMap's
   * data) is not copied in Go's key order in one step; it is left as it is and `keyOrder` gives the order the
   * encoder writes its keys in, so the text is the same as that of `shape`'s value and the work is sliced.
   */
  shapeForSlicedText(value: unknown): { value: unknown; keyOrder: (o: object) => string[] | undefined } {
    const deferred = new Set<object>();
    this.deferred = deferred;
    try {
      return {
        value: this.shape(value),
        keyOrder: (o) => (deferred.has(o) ? shapedMapKeys(o) : undefined),
      };
    } finally {
      this.deferred = undefined;
    }
  }

  /** A value as the real server writes it (see the module comment); unchanged when it names no kind. */
  shape(value: unknown): unknown {
    if (!isObject(value)) return value;
    const { apiVersion, kind } = value;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') return value;
    const def = this.kinds.get(`${apiVersion}|${kind}`);
    if (def !== undefined) return this.struct(def, value);
    const slash = apiVersion.indexOf('/');
    return this.ownGroups.has(slash < 0 ? '' : apiVersion.slice(0, slash)) ? value : sortedDeep(value);
  }

  /** The definition a built-in `apiVersion`/`kind` is written as, if it is one. */
  definitionOf(apiVersion: string, kind: string): string | undefined {
    return this.kinds.get(`${apiVersion}|${kind}`);
  }

  private value(shape: Shape, v: unknown): unknown {
    if (typeof v !== 'object' || v === null) return v;
    switch (shape.k) {
      case 'leaf':
        return v;
      case 'struct':
        return Array.isArray(v) ? v : this.struct(shape.def, v as Obj);
      case 'list': {
        if (!Array.isArray(v)) return v;
        const of = shape.of;
        if (of.k === 'leaf') return v;
        const out: unknown[] = new Array(v.length);
        for (let i = 0; i < v.length; i++) out[i] = this.value(of, v[i]);
        return out;
      }
      case 'map': {
        if (Array.isArray(v)) return v;
        // A wide map of scalars known to the store's copies: written in order by the sliced encoder instead.
        if (shape.of.k === 'leaf' && this.deferred !== undefined && knownToBeWide(v)) {
          this.deferred.add(v);
          return v;
        }
        const out: Obj = {};
        const keys = sortedKeys(v as Obj);
        for (const k of keys) {
          const item = (v as Obj)[k];
          if (item !== undefined) out[k] = shape.of.k === 'leaf' ? item : this.value(shape.of, item);
        }
        // The encoder's size checks need not list a wide map's keys again (machinery/json.ts).
        if (keys.length > slicedAbove) rememberWide(out);
        return out;
      }
      case 'embedded':
        return this.shape(v);
      case 'schemaOr':
        if (Array.isArray(v)) return v.map((s) => this.value({ k: 'struct', def: JSON_SCHEMA_PROPS }, s));
        return this.struct(JSON_SCHEMA_PROPS, v as Obj);
    }
  }

  private struct(def: string, o: Obj): Obj {
    const plan = this.plan(def);
    const out: Obj = {};
    let seen = 0;
    for (const f of plan.fields) {
      const v = o[f.name];
      if (v === undefined) {
        if (this.zeros && 'zero' in f) out[f.name] = f.zero;
        continue;
      }
      seen++;
      out[f.name] = f.shape.k === 'leaf' ? v : this.value(f.shape, v);
    }
    // Fields the facts do not know (a newer field, a sandbox addition) keep their order, after the known ones.
    let own = 0;
    for (const k in o) if (o[k] !== undefined) own++;
    if (own > seen)
      for (const k of Object.keys(o)) if (!plan.known.has(k) && o[k] !== undefined) out[k] = o[k];
    return out;
  }

  private plan(def: string): StructPlan {
    let plan = this.plans.get(def);
    if (plan !== undefined) return plan;
    const d: Definition | undefined = this.definitions[def];
    const props = d?.properties ?? {};
    const order = (goFieldOrder(def) ?? []).map((n) => this.spelled(n));
    // Properties the profile's definitions add (v1.28 validation rule fields) follow the generated order.
    for (const n of Object.keys(props)) if (!order.includes(n)) order.push(n);
    const fields: FieldPlan[] = [];
    plan = { fields, known: new Set(order) };
    this.plans.set(def, plan);
    // A required list or map has no `omitempty` (that is what makes the generator call it required): Go
    // writes an unset one as null (`spec: {containers: null}` in a Pod's bookmark).
    const required = new Set(d?.required ?? []);
    for (const name of order) {
      const node = props[name];
      if (node === undefined) continue;
      const f: FieldPlan = { name, shape: this.shapeOf(node) };
      if (node.default !== undefined && (isZeroScalar(node.default) || isObject(node.default))) {
        const zero = this.zeroOf(node);
        if (zero !== undefined) f.zero = zero;
      } else if (
        node.default === undefined &&
        required.has(name) &&
        node.ref === undefined &&
        (node.type === 'array' || (node.type === 'object' && node.additionalProperties !== undefined))
      )
        f.zero = null;
      fields.push(f);
    }
    return plan;
  }

  /** Schema markers are spelled by the profile (`x-orch-list-type`); the facts keep the upstream spelling. */
  private spelled(name: string): string {
    const marker = /^x-kubernetes-(.+)$/.exec(name);
    return marker?.[1] !== undefined ? this.profile.ext(marker[1]) : name;
  }

  private shapeOf(node: SchemaNode): Shape {
    if (node.ref !== undefined) {
      if (node.ref in leafTypes) return leaf;
      if (node.ref === RAW_EXTENSION) return { k: 'embedded' };
      if (schemaOrTypes.has(node.ref)) return { k: 'schemaOr' };
      const target = this.definitions[node.ref];
      return target?.properties !== undefined && Object.keys(target.properties).length > 0
        ? { k: 'struct', def: node.ref }
        : leaf;
    }
    if (node.type === 'array' && node.items !== undefined) {
      return { k: 'list', of: this.shapeOf(node.items) };
    }
    if (node.type === 'object' && typeof node.additionalProperties === 'object')
      return { k: 'map', of: this.shapeOf(node.additionalProperties) };
    if (node.type === 'object' && node.additionalProperties === true) return { k: 'map', of: leaf };
    return leaf;
  }

  /** What Go writes for an unset field with this (zero) default; undefined when Go writes nothing. */
  private zeroOf(node: SchemaNode): unknown {
    if (node.ref === undefined) return isZeroScalar(node.default) ? node.default : undefined;
    if (node.ref in leafTypes) return leafTypes[node.ref];
    if (node.ref === RAW_EXTENSION) return null;
    if (schemaOrTypes.has(node.ref)) return undefined;
    return this.zeroStruct(node.ref);
  }

  /** A struct's zero value as Go writes it: its own always-written fields, recursively; shared and frozen. */
  private zeroStruct(def: string): unknown {
    if (this.zeroValues.has(def)) return this.zeroValues.get(def);
    this.zeroValues.set(def, Object.freeze({})); // a struct that contains itself by value cannot exist; break cycles
    const out: Obj = {};
    for (const f of this.plan(def).fields) if ('zero' in f) out[f.name] = f.zero;
    const zero = Object.freeze(out);
    this.zeroValues.set(def, zero);
    return zero;
  }
}

const cache = new Map<string, GoJson>();

function shaper(profile: NamingProfile, zeros: boolean): GoJson {
  const key = `${profile.name}|${zeros}`;
  let g = cache.get(key);
  if (g === undefined) {
    const shaper = new GoJson(profile, profileDefinitions(profile, builtInDefinitions), zeros);
    // Its definitions (the profile's set) grow in place with the lazy part; its index of kinds grows here.
    onBuiltInDefinitionsAdded((added) => shaper.indexKinds(added));
    cache.set(key, (g = shaper));
  }
  return g;
}

/** The shaper of a naming profile over the built-in facts, made once. */
export function goJsonFor(profile: NamingProfile): GoJson {
  return shaper(profile, true);
}

/** Go's field order without Go's zero values: for stored objects written out to be stored again (exports). */
export function goOrderFor(profile: NamingProfile): GoJson {
  return shaper(profile, false);
}
