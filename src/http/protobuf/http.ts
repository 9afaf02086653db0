/**
 * Protobuf at the HTTP edge: response bodies in the envelope when the
 * client negotiated protobuf (the writers fall back to JSON for anything
 * without a message, which the real server never offers as protobuf),
 * watch event framing,
 * and protobuf request bodies of POST and PUT, which are decoded here into
 * the JSON request the handlers read — so every verb handler stays
 * JSON-only.
 */

import type { JsonObject } from '../../api/meta';
import type { NamingProfile } from '../../machinery/naming';
import { badRequest } from '../../machinery/errors';
import type { RequestContext } from '../context';
import { parseMediaType } from '../media-type';
import { readBodyBytes, summarizeBody } from '../body';
import { protobufLibrary } from './library';
import { goJsonFor } from '../../registry/encoding/go-json';

/** The protobuf body of a response value, or undefined when its kind has no message. */
/** The codec, from the lazy script the pipeline loaded for a request that mentions protobuf. */
const protobufCodec = (profile: NamingProfile) => protobufLibrary.get().protobufCodec(profile);

export function encodeProtobufBody(
  profile: NamingProfile,
  value: unknown,
): Uint8Array<ArrayBuffer> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return protobufCodec(profile).encode(value as JsonObject);
}

export interface WatchEncoding {
  contentType: string;
  /** One event as bytes on the stream. */
  encode(type: string, object: object): Uint8Array;
  /** JSON only: one event's line as text, without its newline (`encode` is its UTF-8 bytes and the newline). */
  text?(type: string, object: object): string;
}

const textEncoder = new TextEncoder();

/** How a watch stream writes its events: JSON lines, or length-prefixed protobuf frames. */
export function watchEncoding(ctx: RequestContext, profile: NamingProfile): WatchEncoding {
  // The event's object as the real server's Go encoder writes it (field order, zero values).
  const text = (type: string, object: object): string =>
    JSON.stringify({ type, object: goJsonFor(profile).shape(object) });
  const json: WatchEncoding = {
    contentType: 'application/json',
    encode: (type, object) => textEncoder.encode(`${text(type, object)}\n`),
    text,
  };
  if (ctx.output?.protobuf === undefined) return json;
  const codec = protobufCodec(profile);
  return {
    contentType: `${profile.protobufMediaType};stream=watch`,
    encode: (type, object) => codec.watchFrame(type, object as JsonObject) ?? json.encode(type, object),
  };
}

/**
 * When a request's body is protobuf, replaces `ctx.request` with the same
 * request carrying the decoded object as JSON. The envelope names its own
 * apiVersion and kind, so handlers still check them against the endpoint.
 */
export async function decodeProtobufBody(
  ctx: RequestContext,
  profile: NamingProfile,
  customKind?: string,
): Promise<void> {
  const contentType = ctx.request.headers.get('content-type');
  if (contentType === null || parseMediaType(contentType)?.essence !== profile.protobufMediaType) return;
  const bytes = await readBodyBytes(ctx.request);
  if (customKind !== undefined) throw customResourceProtobuf(profile, bytes, customKind);
  if (bytes.length === 0) throw badRequest('empty protobuf request body');
  const object = protobufCodec(profile).decode(bytes);
  const headers = new Headers(ctx.request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  ctx.request = new Request(ctx.request.url, {
    method: ctx.request.method,
    headers,
    body: JSON.stringify(object),
    signal: ctx.signal,
  });
}

const notMarshalable =
  'object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message';

/**
 * A custom resource's body in protobuf: the real server offers the media type
 * (it is in the 415 list) but decodes into an unstructured object, which has
 * no message, and answers 400 worded as its decode errors are.
 */
function customResourceProtobuf(profile: NamingProfile, bytes: Uint8Array, kind: string): Error {
  const meta = protobufCodec(profile).envelopeType(bytes);
  if (meta === undefined)
    return badRequest(
      `the object provided is unrecognized (must be of type ${kind}): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (${summarizeBody(new TextDecoder().decode(bytes))})`,
    );
  const version = meta.apiVersion.slice(meta.apiVersion.lastIndexOf('/') + 1);
  return badRequest(
    `${meta.kind === '' ? kind : meta.kind} in version "${version}" cannot be handled as a ${kind}: ${notMarshalable}`,
  );
}
