/**
 * Converts between an object's JSON form and the plain message objects
 * protobufjs encodes and decodes, field by field from the descriptor: JSON
 * names (`jsonName`, and `x-<word>-` schema markers in the profile's
 * spelling), Go embedded structs (`inline`: their fields sit in the parent
 * JSON object), maps, and the types whose JSON form differs from their
 * message (times, int-or-string, quantities, raw JSON, string-list
 * wrappers, the JSON-schema "or" types).
 *
 * Decoding mirrors what a Go server would emit after decoding: empty
 * strings are dropped unless the schema marks the field as always present
 * (it has a zero default), empty lists and maps are dropped, and a zero
 * time is absent.
 */

import { MapField, type Field, type Type } from 'protobufjs/light';
import type { NamingProfile } from '../../machinery/naming';
import type { DefinitionSet } from '../../machinery/schema';
import { isPlainObject } from '../../machinery/json';
import { definitionOfProtoName, fieldAnnotations, fullNameOf } from './descriptor';
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
  /** The schema gives the field a zero default: an empty string is a value, not an absence. */
  keepEmpty: boolean;
}

interface TypePlan {
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

export class ProtoConverter {
  private readonly plans = new Map<Type, TypePlan>();

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

  plan(type: Type): TypePlan {
    let plan = this.plans.get(type);
    if (plan !== undefined) return plan;
    const fullName = fullNameOf(type);
    const special = specialOf(fullName, type);
    const notes = fieldAnnotations(fullName);
    const props = this.definitions[definitionOfProtoName(fullName)]?.properties ?? {};
    const fields = type.fieldsArray.map((f: Field): FieldPlan => {
      f.resolve();
      const note = notes?.get(f.name);
      const json = this.jsonNameOf(f.name, note?.jsonName);
      const resolved = f.resolvedType;
      const message = resolved !== null && 'fieldsArray' in resolved ? (resolved as Type) : undefined;
      return {
        name: f.name,
        json,
        inline: note?.inline === true,
        repeated: f.repeated,
        map: f instanceof MapField,
        ...(message === undefined ? { scalar: f.type } : { message }),
        keepEmpty: props[json]?.default !== undefined,
      };
    });
    const payload = special === 'rawJson' || special === 'stringList' ? type.fieldsArray[0]?.name : undefined;
    plan = {
      ...(special !== undefined ? { special } : {}),
      ...(payload !== undefined ? { payload } : {}),
      fields,
    };
    this.plans.set(type, plan);
    return plan;
  }

  /** The message object for a JSON object of `type`. Fields the message does not have are left out. */
  toMessage(type: Type, json: Json): Msg {
    const out: Msg = {};
    for (const f of this.plan(type).fields) {
      if (f.inline && f.message !== undefined) {
        out[f.name] = this.toMessage(f.message, json);
        continue;
      }
      const v = json[f.json];
      if (v === undefined || v === null) continue;
      if (f.map) {
        if (!isPlainObject(v)) continue;
        const m: Msg = {};
        for (const [k, item] of Object.entries(v)) {
          const converted = this.valueToWire(f, item);
          if (converted !== undefined) m[k] = converted;
        }
        out[f.name] = m;
      } else if (f.repeated) {
        if (!Array.isArray(v)) continue;
        out[f.name] = v.map((item: unknown) => this.valueToWire(f, item)).filter((x) => x !== undefined);
      } else {
        const converted = this.valueToWire(f, v);
        if (converted !== undefined) out[f.name] = converted;
      }
    }
    return out;
  }

  private valueToWire(f: FieldPlan, v: unknown): unknown {
    if (v === null || v === undefined) return undefined;
    if (f.message !== undefined) return this.specialToWire(f.message, v);
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

  private specialToWire(type: Type, v: unknown): unknown {
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
              .map((s) => this.toMessage(this.fieldType(type, 'schema'), s)),
          };
        return isPlainObject(v) ? { schema: this.toMessage(this.fieldType(type, 'schema'), v) } : undefined;
      case 'orBool':
        if (typeof v === 'boolean') return { allows: v };
        return isPlainObject(v)
          ? { allows: true, schema: this.toMessage(this.fieldType(type, 'schema'), v) }
          : undefined;
      case 'orStringArray':
        if (Array.isArray(v)) return { property: v.map(String) };
        return isPlainObject(v) ? { schema: this.toMessage(this.fieldType(type, 'schema'), v) } : undefined;
      default:
        return isPlainObject(v) ? this.toMessage(type, v) : undefined;
    }
  }

  private fieldType(type: Type, field: string): Type {
    const t = this.plan(type).fields.find((f) => f.name === field)?.message;
    if (t === undefined) throw new Error(`${type.name}.${field} is not a message field`);
    return t;
  }

  /** The JSON object of a decoded message of `type`. */
  fromMessage(type: Type, msg: Msg): Json {
    const out: Json = {};
    for (const f of this.plan(type).fields) {
      const v = msg[f.name];
      if (f.inline && f.message !== undefined) {
        if (isObj(v)) Object.assign(out, this.fromMessage(f.message, v));
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
      } else if (f.repeated) {
        if (!Array.isArray(v) || v.length === 0) continue;
        out[f.json] = v.map((item: unknown) => this.valueFromWire(f, item)).filter((x) => x !== undefined);
      } else {
        if (!hasOwn(msg, f.name) || v === null || v === undefined) continue;
        const converted = this.valueFromWire(f, v);
        if (converted === undefined || (converted === '' && !f.keepEmpty)) continue;
        out[f.json] = converted;
      }
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
