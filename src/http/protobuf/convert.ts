/**
 * Converts between an object's JSON form and the plain message objects
 * protobufjs encodes and decodes, field by field from the descriptor: JSON
 * names (`jsonName`, and `x-<word>-` schema markers in the profile's
 * spelling), Go embedded structs (`inline`: their fields sit in the parent
 * JSON object), maps, and the types whose JSON form differs from their
 * message (times, int-or-string, quantities, raw JSON, string-list
 * wrappers, the JSON-schema "or" types).
 *
 * Decoding gives exactly the JSON that the real server's Go types would
 * marshal after decoding the message (see decision 0028): a plain scalar
 * without `omitempty` (the schema gives it a zero default) is always
 * present, a plain `omitempty` scalar only when it is not zero, a pointer
 * scalar (`go-pointers.json`, or required without a default) whenever it
 * is on the wire; a plain struct (default `{}`) is always present, as its
 * zero value when absent; empty lists and maps and a zero time are absent.
 * `toMessage(…, { asGoClient: true })` writes a message as a Go client
 * does — every plain field, zero or not — for tests and benchmarks.
 */

import type { Field, Type } from 'protobufjs/light';
import type { NamingProfile } from '../../machinery/naming';
import type { DefinitionSet } from '../../machinery/schema';
import { isPlainObject } from '../../machinery/json';
import { definitionOfProtoName, fieldAnnotations, fullNameOf } from './descriptor';
import { protobufLibrary } from './library';
import {
  base64ToBytes,
  bytesToBase64,
  formatMicroTime,
  formatTime,
  fromUtf8,
  parseTimestamp,
  toNumber,
  utf8,
} from './wire-values';

export type Msg = Record<string, unknown>;
type Json = Record<string, unknown>;

type Special =
  | 'time'
  | 'microTime'
  | 'intOrString'
  | 'quantity'
  | 'rawJson'
  | 'stringList'
  | 'orArray'
  | 'orBool'
  | 'orStringArray';

interface FieldPlan {
  name: string;
  json: string;
  inline: boolean;
  repeated: boolean;
  map: boolean;
  scalar?: string;
  message?: Type;
  /**
   * How the Go field shows in JSON: `always` (plain, no omitempty), `nonZero` (plain with omitempty),
   * `present` (a pointer, or a plain struct: whenever set — a plain struct is always set).
   */
  presence: 'always' | 'nonZero' | 'present';
  /** A plain (non-pointer) struct: present as its zero value when absent from the wire. */
  plainStruct: boolean;
}

interface TypePlan {
  /** The definition whose schema facts the fields read (an embedded struct without its own uses its parent's). */
  factsName: string;
  special?: Special;
  /** For rawJson / stringList: the one field holding the payload. */
  payload?: string;
  fields: FieldPlan[];
}

const int64Types = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function specialOf(fullName: string, type: Type): TypePlan['special'] {
  switch (fullName) {
    case 'apimachinery.pkg.apis.meta.v1.Time':
      return 'time';
    case 'apimachinery.pkg.apis.meta.v1.MicroTime':
      return 'microTime';
    case 'apimachinery.pkg.util.intstr.IntOrString':
      return 'intOrString';
    case 'apimachinery.pkg.api.resource.Quantity':
    case 'apimachinery.pkg.api.resource.QuantityValue':
      return 'quantity';
    case 'apimachinery.pkg.runtime.RawExtension':
    case 'apimachinery.pkg.apis.meta.v1.FieldsV1':
    case 'apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON':
      return 'rawJson';
    case 'apimachinery.pkg.apis.meta.v1.Verbs':
      return 'stringList';
    case 'apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray':
      return 'orArray';
    case 'apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool':
      return 'orBool';
    case 'apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray':
      return 'orStringArray';
  }
  // ExtraValue (authentication, authorization, certificates): a string list in JSON.
  if (
    fullName.endsWith('.ExtraValue') &&
    type.fieldsArray.length === 1 &&
    type.fields.items?.repeated === true
  )
    return 'stringList';
  return undefined;
}

function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

function isZeroScalar(v: unknown): boolean {
  if (v === '' || v === false || v === 0) return true;
  if (typeof v === 'object' && v !== null && 'toNumber' in v) return toNumber(v) === 0;
  return false;
}

export interface ToMessageOptions {
  /** Write every plain (non-pointer) field, zero or not, as a Go client's marshalling does. */
  asGoClient?: boolean;
}

export class ProtoConverter {
  /** Plans by message type, then by the definition an embedded struct borrows its facts from. */
  private readonly plans = new Map<Type, Map<string, TypePlan>>();

  constructor(
    private readonly profile: NamingProfile,
    private readonly definitions: DefinitionSet,
  ) {}

  private jsonNameOf(name: string, annotated: string | undefined): string {
    if (annotated === undefined) return name;
    // Schema markers are stored in their upstream spelling; the profile spells them on the wire.
    const marker = /^x-[a-z]+-(.+)$/.exec(annotated);
    return marker?.[1] !== undefined ? this.profile.ext(marker[1]) : annotated;
  }

  plan(type: Type, parentFacts = ''): TypePlan {
    let byParent = this.plans.get(type);
    let plan = byParent?.get(parentFacts);
    if (plan !== undefined) return plan;
    if (byParent === undefined) this.plans.set(type, (byParent = new Map()));
    const fullName = fullNameOf(type);
    const ownName = definitionOfProtoName(fullName);
    const factsName = this.definitions[ownName] !== undefined ? ownName : parentFacts;
    const special = specialOf(fullName, type);
    const notes = fieldAnnotations(fullName);
    const def = this.definitions[factsName];
    const props = def?.properties ?? {};
    const required = new Set(def?.required ?? []);
    // The Go pointer fields come with the library (the lazy script), off the worker's path to its first answer.
    const pointerFields: Record<string, readonly string[] | undefined> = protobufLibrary.get().goPointers;
    const pointers = new Set(pointerFields[factsName] ?? []);
    const fields = type.fieldsArray.map((f: Field): FieldPlan => {
      f.resolve();
      const note = notes?.get(f.name);
      const json = this.jsonNameOf(f.name, note?.jsonName);
      const resolved = f.resolvedType;
      const message = resolved !== null && 'fieldsArray' in resolved ? (resolved as Type) : undefined;
      const prop = props[json];
      const dflt = prop?.default;
      const plainStruct =
        message !== undefined && typeof dflt === 'object' && dflt !== null && !Array.isArray(dflt);
      let presence: FieldPlan['presence'];
      if (message !== undefined || f.type === 'bytes') presence = 'present';
      else if (dflt !== undefined) presence = isZeroScalar(dflt) ? 'always' : 'nonZero';
      else if (pointers.has(json) || required.has(json)) presence = 'present';
      else presence = 'nonZero';
      return {
        name: f.name,
        json,
        inline: note?.inline === true,
        repeated: f.repeated,
        map: f instanceof protobufLibrary.get().MapField,
        ...(message === undefined ? { scalar: f.type } : { message }),
        presence,
        plainStruct,
      };
    });
    const payload = special === 'rawJson' || special === 'stringList' ? type.fieldsArray[0]?.name : undefined;
    plan = {
      factsName,
      ...(special !== undefined ? { special } : {}),
      ...(payload !== undefined ? { payload } : {}),
      fields,
    };
    byParent.set(parentFacts, plan);
    return plan;
  }

  /** The message object for a JSON object of `type`. Fields the message does not have are left out. */
  toMessage(type: Type, json: Json, options: ToMessageOptions = {}, parentFacts = ''): Msg {
    const out: Msg = {};
    const plan = this.plan(type, parentFacts);
    const asGo = options.asGoClient === true;
    for (const f of plan.fields) {
      if (f.inline && f.message !== undefined) {
        out[f.name] = this.toMessage(f.message, json, options, plan.factsName);
        continue;
      }
      const v = json[f.json];
      if (v === undefined || v === null) {
        if (asGo && !f.map && !f.repeated) {
          const zero = this.goZeroOnWire(f, options);
          if (zero !== undefined) out[f.name] = zero;
        }
        continue;
      }
      if (f.map) {
        if (!isPlainObject(v)) continue;
        const m: Msg = {};
        for (const [k, item] of Object.entries(v)) {
          const converted = this.valueToWire(f, item, options);
          if (converted !== undefined) m[k] = converted;
        }
        out[f.name] = m;
      } else if (f.repeated) {
        if (!Array.isArray(v)) continue;
        out[f.name] = v
          .map((item: unknown) => this.valueToWire(f, item, options))
          .filter((x) => x !== undefined);
      } else {
        const converted = this.valueToWire(f, v, options);
        if (converted !== undefined) out[f.name] = converted;
      }
    }
    return out;
  }

  /** What a Go client writes for a plain field it holds as zero; undefined for a nil pointer. */
  private goZeroOnWire(f: FieldPlan, options: ToMessageOptions): unknown {
    if (f.message !== undefined) {
      if (!f.plainStruct) return undefined;
      const special = this.plan(f.message).special;
      if (special === 'intOrString') return { type: 0, intVal: 0, strVal: '' };
      if (special === 'quantity') return { string: '0' };
      // A zero time, raw JSON or string list is an empty message.
      if (special !== undefined) return {};
      return this.toMessage(f.message, {}, options);
    }
    if (f.presence === 'present') return undefined;
    switch (f.scalar) {
      case 'string':
        return '';
      case 'bool':
        return false;
      case 'bytes':
        return undefined;
      default:
        return 0;
    }
  }

  private valueToWire(f: FieldPlan, v: unknown, options: ToMessageOptions = {}): unknown {
    if (v === null || v === undefined) return undefined;
    if (f.message !== undefined) return this.specialToWire(f.message, v, options);
    switch (f.scalar) {
      case 'string':
        return typeof v === 'string' ? v : typeof v === 'object' ? undefined : String(v);
      case 'bool':
        return v === true || v === 'true';
      case 'bytes':
        return typeof v === 'string' ? (base64ToBytes(v) ?? utf8(v)) : undefined;
      default: {
        const n = typeof v === 'number' ? v : Number(v);
        return Number.isFinite(n) ? n : undefined;
      }
    }
  }

  private specialToWire(type: Type, v: unknown, options: ToMessageOptions): unknown {
    const plan = this.plan(type);
    switch (plan.special) {
      case 'time': {
        const t = typeof v === 'string' ? parseTimestamp(v) : undefined;
        // metav1.Time is whole seconds on the wire, as in JSON.
        return t === undefined ? undefined : { seconds: t.seconds };
      }
      case 'microTime': {
        const t = typeof v === 'string' ? parseTimestamp(v) : undefined;
        return t === undefined ? undefined : { seconds: t.seconds, nanos: Math.floor(t.nanos / 1000) * 1000 };
      }
      case 'intOrString':
        if (typeof v === 'number') return { type: 0, intVal: Math.trunc(v) };
        return { type: 1, strVal: String(v) };
      case 'quantity':
        return { string: String(v) };
      case 'rawJson':
        return { [plan.payload ?? 'raw']: utf8(JSON.stringify(v)) };
      case 'stringList':
        return Array.isArray(v) ? { [plan.payload ?? 'items']: v.map(String) } : undefined;
      case 'orArray':
        if (Array.isArray(v))
          return {
            jSONSchemas: v
              .filter(isPlainObject)
              .map((s) => this.toMessage(this.fieldType(type, 'schema'), s, options)),
          };
        return isPlainObject(v)
          ? { schema: this.toMessage(this.fieldType(type, 'schema'), v, options) }
          : undefined;
      case 'orBool':
        if (typeof v === 'boolean') return { allows: v };
        return isPlainObject(v)
          ? { allows: true, schema: this.toMessage(this.fieldType(type, 'schema'), v, options) }
          : undefined;
      case 'orStringArray':
        if (Array.isArray(v)) return { property: v.map(String) };
        return isPlainObject(v)
          ? { schema: this.toMessage(this.fieldType(type, 'schema'), v, options) }
          : undefined;
      default:
        return isPlainObject(v) ? this.toMessage(type, v, options) : undefined;
    }
  }

  private fieldType(type: Type, field: string): Type {
    const t = this.plan(type).fields.find((f) => f.name === field)?.message;
    if (t === undefined) throw new Error(`${type.name}.${field} is not a message field`);
    return t;
  }

  /** The JSON object of a decoded message of `type`, as the Go type it decodes into marshals it. */
  fromMessage(type: Type, msg: Msg, parentFacts = ''): Json {
    const out: Json = {};
    const plan = this.plan(type, parentFacts);
    for (const f of plan.fields) {
      const v = msg[f.name];
      if (f.inline && f.message !== undefined) {
        // Embedded structs are plain in Go: absent means all their fields are zero.
        Object.assign(out, this.fromMessage(f.message, isObj(v) ? v : {}, plan.factsName));
        continue;
      }
      if (f.map) {
        if (typeof v !== 'object' || v === null) continue;
        const entries = Object.entries(v as Msg);
        if (entries.length === 0) continue;
        const m: Json = {};
        for (const [k, item] of entries) {
          const converted = this.valueFromWire(f, item);
          if (converted !== undefined) m[k] = converted;
        }
        out[f.json] = m;
        continue;
      }
      if (f.repeated) {
        if (!Array.isArray(v) || v.length === 0) continue;
        out[f.json] = v.map((item: unknown) => this.valueFromWire(f, item)).filter((x) => x !== undefined);
        continue;
      }
      const present = hasOwn(msg, f.name) && v !== null && v !== undefined;
      if (f.message !== undefined) {
        let converted: unknown;
        if (present) converted = this.valueFromWire(f, v);
        else if (f.plainStruct && this.plan(f.message).special !== 'stringList')
          converted = this.specialFromWire(f.message, {});
        if (converted !== undefined) out[f.json] = converted;
        continue;
      }
      if (f.scalar === 'bytes') {
        if (present && v instanceof Uint8Array && v.length > 0) out[f.json] = bytesToBase64(v);
        continue;
      }
      const value = present ? this.valueFromWire(f, v) : zeroScalar(f.scalar);
      if (value === undefined) continue;
      if (f.presence === 'always' || (f.presence === 'present' ? present : !isZeroScalar(value)))
        out[f.json] = value;
    }
    return out;
  }

  private valueFromWire(f: FieldPlan, v: unknown): unknown {
    if (f.message !== undefined)
      return typeof v === 'object' && v !== null ? this.specialFromWire(f.message, v as Msg) : undefined;
    if (f.scalar === 'bytes') return v instanceof Uint8Array ? bytesToBase64(v) : undefined;
    if (f.scalar !== undefined && int64Types.has(f.scalar)) return toNumber(v);
    return v;
  }

  private specialFromWire(type: Type, m: Msg): unknown {
    const plan = this.plan(type);
    switch (plan.special) {
      case 'time':
        // An empty message is Go's zero time, which JSON spells null (absent here).
        return hasOwn(m, 'seconds') || hasOwn(m, 'nanos') ? formatTime(toNumber(m.seconds ?? 0)) : undefined;
      case 'microTime':
        return hasOwn(m, 'seconds') || hasOwn(m, 'nanos')
          ? formatMicroTime(toNumber(m.seconds ?? 0), toNumber(m.nanos ?? 0))
          : undefined;
      case 'intOrString':
        return toNumber(m.type ?? 0) === 1 ? String(m.strVal ?? '') : toNumber(m.intVal ?? 0);
      case 'quantity':
        return typeof m.string === 'string' && m.string !== '' ? m.string : '0';
      case 'rawJson': {
        const raw = m[plan.payload ?? 'raw'];
        return raw instanceof Uint8Array && raw.length > 0 ? parseRawJson(raw) : undefined;
      }
      case 'stringList': {
        const items = m[plan.payload ?? 'items'];
        return Array.isArray(items) ? items.map(String) : [];
      }
      case 'orArray': {
        const many = m.jSONSchemas;
        if (Array.isArray(many) && many.length > 0)
          return many.map((s: Msg) => this.fromMessage(this.fieldType(type, 'schema'), s));
        return isObj(m.schema) ? this.fromMessage(this.fieldType(type, 'schema'), m.schema) : undefined;
      }
      case 'orBool':
        if (isObj(m.schema)) return this.fromMessage(this.fieldType(type, 'schema'), m.schema);
        return m.allows === true;
      case 'orStringArray': {
        const list = m.property;
        if (Array.isArray(list) && list.length > 0) return list.map(String);
        return isObj(m.schema) ? this.fromMessage(this.fieldType(type, 'schema'), m.schema) : [];
      }
      default:
        return this.fromMessage(type, m);
    }
  }
}

function zeroScalar(scalar: string | undefined): unknown {
  if (scalar === 'string') return '';
  if (scalar === 'bool') return false;
  return 0;
}

function isObj(v: unknown): v is Msg {
  return typeof v === 'object' && v !== null;
}

/** Raw JSON bytes as a value; bytes that are not JSON (e.g. a nested protobuf object) are kept as base64 text. */
function parseRawJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(fromUtf8(raw)) as unknown;
  } catch {
    return bytesToBase64(raw);
  }
}
