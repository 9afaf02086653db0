/**
 * The protobuf encoding of built-in kinds, as the real server frames it:
 * four magic bytes `k8s\0`, then a `runtime.Unknown` whose `typeMeta`
 * names the apiVersion and kind and whose `raw` is the object's message
 * (`contentEncoding` and `contentType` empty). Watch streams send each
 * `WatchEvent` message bare behind a 4-byte big-endian length, with the
 * object inside as a complete envelope in `object.raw`.
 *
 * One codec per naming profile; the descriptor is built on first use.
 */

import type { Type } from 'protobufjs/light';
import type { JsonObject, KubeObject } from '../../api/meta';
import { badRequest } from '../../machinery/errors';
import type { NamingProfile } from '../../machinery/naming';
import type { DefinitionSet } from '../../machinery/schema';
import { builtInDefinitions } from '../../registry/builtins';
import { KindIndex, lookupMessage } from './descriptor';
import { ProtoConverter, type Msg, type ToMessageOptions } from './convert';

const magic = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

export interface ProtobufCodec {
  /** True when `apiVersion`/`kind` has a message (built-in kinds, their lists, Status, Scale, ...). */
  canEncode(apiVersion: string, kind: string): boolean;
  /**
   * The envelope of an object, list or Status; undefined when its kind has no message. With
   * `asGoClient`, every plain Go field is written, zero or not, as a Go client sends it.
   */
  encode(value: JsonObject | KubeObject, options?: ToMessageOptions): Uint8Array<ArrayBuffer> | undefined;
  /** An envelope back to the JSON object, with apiVersion and kind from its type meta. Malformed input is a 400. */
  decode(bytes: Uint8Array): KubeObject;
  /** The type meta of an envelope; undefined when the bytes are not one. */
  envelopeType(bytes: Uint8Array): { apiVersion: string; kind: string } | undefined;
  /** One watch stream frame (length prefix included); undefined when the object's kind has no message. */
  watchFrame(type: string, object: JsonObject | KubeObject): Uint8Array<ArrayBuffer> | undefined;
}

class Codec implements ProtobufCodec {
  private readonly kinds: KindIndex;
  private readonly converter: ProtoConverter;
  private unknownType: Type | undefined;
  private watchEventType: Type | undefined;

  constructor(profile: NamingProfile, definitions: DefinitionSet) {
    this.kinds = new KindIndex(profile, definitions);
    this.converter = new ProtoConverter(profile, definitions);
  }

  private unknown(): Type {
    this.unknownType ??= required('apimachinery.pkg.runtime.Unknown');
    return this.unknownType;
  }

  private watchEvent(): Type {
    this.watchEventType ??= required('apimachinery.pkg.apis.meta.v1.WatchEvent');
    return this.watchEventType;
  }

  canEncode(apiVersion: string, kind: string): boolean {
    return this.kinds.message(apiVersion, kind) !== undefined;
  }

  encode(
    value: JsonObject | KubeObject,
    options: ToMessageOptions = {},
  ): Uint8Array<ArrayBuffer> | undefined {
    const apiVersion = typeof value.apiVersion === 'string' ? value.apiVersion : '';
    const kind = typeof value.kind === 'string' ? value.kind : '';
    const type = this.kinds.message(apiVersion, kind);
    if (type === undefined) return undefined;
    const raw = type
      .encode(this.converter.toMessage(type, value as Record<string, unknown>, options))
      .finish();
    const body = this.unknown()
      .encode({ typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' })
      .finish();
    const out = new Uint8Array(magic.length + body.length);
    out.set(magic, 0);
    out.set(body, magic.length);
    return out;
  }

  decode(bytes: Uint8Array): KubeObject {
    if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) {
      throw badRequest(
        'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
      );
    }
    let envelope: Msg;
    try {
      envelope = this.unknown().decode(bytes.subarray(magic.length)) as unknown as Msg;
    } catch (e) {
      throw badRequest(`unable to decode protobuf envelope: ${e instanceof Error ? e.message : String(e)}`);
    }
    const typeMeta = isObject(envelope.typeMeta) ? envelope.typeMeta : {};
    const apiVersion = typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '';
    const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
    if (typeof envelope.contentEncoding === 'string' && envelope.contentEncoding !== '') {
      throw badRequest(`unsupported content encoding ${JSON.stringify(envelope.contentEncoding)}`);
    }
    const type = this.kinds.message(apiVersion, kind);
    if (type === undefined)
      throw badRequest(`no kind "${kind}" is registered for version "${apiVersion}" in the protobuf scheme`);
    const raw = envelope.raw instanceof Uint8Array ? envelope.raw : new Uint8Array();
    let msg: Msg;
    try {
      msg = type.decode(raw) as unknown as Msg;
    } catch (e) {
      throw badRequest(`unable to decode ${kind}: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { apiVersion, kind, ...this.converter.fromMessage(type, msg) } as KubeObject;
  }

  envelopeType(bytes: Uint8Array): { apiVersion: string; kind: string } | undefined {
    if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) return undefined;
    try {
      const envelope = this.unknown().decode(bytes.subarray(magic.length)) as unknown as Msg;
      const typeMeta = isObject(envelope.typeMeta) ? envelope.typeMeta : {};
      return {
        apiVersion: typeof typeMeta.apiVersion === 'string' ? typeMeta.apiVersion : '',
        kind: typeof typeMeta.kind === 'string' ? typeMeta.kind : '',
      };
    } catch {
      return undefined;
    }
  }

  watchFrame(type: string, object: JsonObject | KubeObject): Uint8Array<ArrayBuffer> | undefined {
    const raw = this.encode(object);
    if (raw === undefined) return undefined;
    const event = this.watchEvent().encode({ type, object: { raw } }).finish();
    const out = new Uint8Array(4 + event.length);
    new DataView(out.buffer).setUint32(0, event.length, false);
    out.set(event, 4);
    return out;
  }
}

function required(name: string): Type {
  const t = lookupMessage(name);
  if (t === undefined) throw new Error(`protobuf descriptor lacks ${name}`);
  return t;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

const codecs = new Map<string, ProtobufCodec>();

/** The codec of a profile over the built-in definitions (created once, descriptor loaded lazily). */
export function protobufCodec(profile: NamingProfile): ProtobufCodec {
  let codec = codecs.get(profile.name);
  if (codec === undefined) {
    codec = new Codec(profile, builtInDefinitions);
    codecs.set(profile.name, codec);
  }
  return codec;
}

/** Splits a watch stream body into its frames' WatchEvent messages, decoding each object: for tests and clients. */
export function decodeWatchFrames(
  profile: NamingProfile,
  body: Uint8Array,
): { type: string; object: KubeObject }[] {
  const codec = protobufCodec(profile);
  const eventType = required('apimachinery.pkg.apis.meta.v1.WatchEvent');
  const out: { type: string; object: KubeObject }[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let at = 0; at + 4 <= body.length;) {
    const len = view.getUint32(at, false);
    const frame = body.subarray(at + 4, at + 4 + len);
    at += 4 + len;
    const ev = eventType.decode(frame) as unknown as Msg;
    const obj = isObject(ev.object) ? ev.object.raw : undefined;
    out.push({ type: String(ev.type ?? ''), object: obj instanceof Uint8Array ? codec.decode(obj) : {} });
  }
  return out;
}
