/**
 * Serves `/openapi/v2` and `/openapi/v3[/<group-version>]` as the real
 * server does: v3 has an index whose entries point at each document with
 * `?hash=` (the uppercase hex SHA-512 of the document), documents fetched
 * with the current hash are immutable for caches and a stale hash
 * redirects (301) to the current one; every response carries an ETag and
 * answers `If-None-Match` with 304. v2 is JSON or gnostic protobuf by
 * `Accept`; anything else is a 406 with a Status naming what is offered
 * (the real server's 406 here is bare; every error of this server carries
 * a Status). Documents are rebuilt when the
 * catalog's generation changes (custom resources come and go). The
 * builders are a lazy script loaded by the first such request (decision
 * 0070): a first answer elsewhere never waits for them.
 */

import type { JsonObject } from '../../api/meta';
import { pathNotFound, methodNotAllowed, notAcceptable as notAcceptableError } from '../../machinery/errors';
import type { Catalog } from '../../registry/catalog';
import type { RequestContext } from '../context';
import { parseAccept } from '../media-type';
import { baseHeaders } from '../respond';
import { openApiDocuments } from './library';

const v2Protobuf = [
  'com.github.proto-openapi.spec.v2@v1.0+protobuf',
  'com.github.proto-openapi.spec.v2.v1.0+protobuf',
];
const v2ProtobufContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface Doc {
  body: Uint8Array<ArrayBuffer>;
  hash: string;
}

interface V3State {
  index: Doc;
  docs: Map<string, Doc>;
}

interface V2State {
  document: JsonObject;
  json: Doc;
  proto?: Uint8Array<ArrayBuffer>;
}

/** A build for one catalog generation. */
interface Cached<T> {
  generation: number;
  state: Promise<T>;
}

const encoder = new TextEncoder();

async function sha512Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', bytes));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex.toUpperCase();
}

async function doc(value: JsonObject): Promise<Doc> {
  const body = encoder.encode(JSON.stringify(value));
  return { body, hash: await sha512Hex(body) };
}

export interface OpenApiService {
  /** Answers a request under `/openapi/`. */
  handle(ctx: RequestContext): Promise<Response>;
}

export function createOpenApiService(catalog: Catalog, serverVersion: string): OpenApiService {
  let v3: Cached<V3State> | undefined;
  let v2: Cached<V2State> | undefined;

  const buildV3 = async (): Promise<V3State> => {
    const docs = new Map<string, Doc>();
    const paths: Record<string, { serverRelativeURL: string }> = {};
    const { buildV3Documents } = await openApiDocuments.load();
    for (const [key, value] of buildV3Documents(catalog)) {
      const d = await doc(value);
      docs.set(key, d);
      paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${d.hash}` };
    }
    return { index: await doc({ paths }), docs };
  };
  const buildV2 = async (): Promise<V2State> => {
    const { buildV2Document } = await openApiDocuments.load();
    const document = buildV2Document(catalog, serverVersion);
    return { document, json: await doc(document) };
  };
  // Documents are built on the first request after the catalog changes, and shared by concurrent requests.
  // A failed build is not kept: the next request tries again.
  const currentV3 = (): Promise<V3State> => {
    if (v3?.generation !== catalog.generation) {
      const entry: Cached<V3State> = { generation: catalog.generation, state: buildV3() };
      entry.state.catch(() => v3 === entry && (v3 = undefined));
      v3 = entry;
    }
    return v3.state;
  };
  const currentV2 = (): Promise<V2State> => {
    if (v2?.generation !== catalog.generation) {
      const entry: Cached<V2State> = { generation: catalog.generation, state: buildV2() };
      entry.state.catch(() => v2 === entry && (v2 = undefined));
      v2 = entry;
    }
    return v2.state;
  };

  return {
    async handle(ctx) {
      const method = ctx.request.method.toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed();
      const parts = ctx.url.pathname.split('/').filter((p) => p !== '');
      if (parts[1] === 'v2' && parts.length === 2) return serveV2(ctx, await currentV2());
      if (parts[1] === 'v3') {
        const state = await currentV3();
        if (parts.length === 2) return serve(ctx, state.index, 'application/json');
        const key = parts.slice(2).join('/');
        const d = state.docs.get(key);
        if (d === undefined) throw pathNotFound();
        return serveV3Document(ctx, key, d);
      }
      throw pathNotFound();
    },
  };
}

/** Which representation an Accept header picks: the first clause we can serve, in preference order. */
function pick(accept: string | null, subtypes: { subtype: string; value: string }[]): string | undefined {
  const clauses = parseAccept(accept === null || accept.trim() === '' ? '*/*' : accept);
  for (const c of clauses) {
    for (const s of subtypes) {
      if (c.type !== 'application' && c.type !== '*') continue;
      if (c.subtype !== s.subtype && c.subtype !== '*') continue;
      return s.value;
    }
  }
  return undefined;
}

function notAcceptable(ctx: RequestContext, offered: readonly string[]): Response {
  const error = notAcceptableError(offered);
  const headers = baseHeaders(ctx, 'application/json');
  headers.set('Vary', 'Accept');
  const body = ctx.request.method.toUpperCase() === 'HEAD' ? null : `${JSON.stringify(error.status)}\n`;
  return new Response(body, { status: error.code, headers });
}

function serve(
  ctx: RequestContext,
  d: { body: Uint8Array<ArrayBuffer>; hash: string },
  contentType: string,
  extra?: Record<string, string>,
): Response {
  const headers = baseHeaders(ctx, contentType);
  headers.set('ETag', `"${d.hash}"`);
  headers.set('Vary', 'Accept');
  for (const [k, v] of Object.entries(extra ?? {})) headers.set(k, v);
  const match = ctx.request.headers.get('if-none-match');
  if (match !== null && match.split(',').some((t) => t.trim().replace(/^W\//, '') === `"${d.hash}"`)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Length', String(d.body.length));
  return new Response(ctx.request.method.toUpperCase() === 'HEAD' ? null : d.body, { status: 200, headers });
}

function serveV2(ctx: RequestContext, state: V2State): Response {
  const choice = pick(ctx.request.headers.get('accept'), [
    { subtype: 'json', value: 'json' },
    ...v2Protobuf.map((subtype) => ({ subtype, value: 'protobuf' })),
  ]);
  if (choice === undefined) return notAcceptable(ctx, ['application/json', v2ProtobufContentType]);
  if (choice === 'json') return serve(ctx, state.json, 'application/json');
  // The builders are loaded: the document was built by them.
  state.proto ??= openApiDocuments.get().encodeSwaggerDocument(state.document);
  return serve(ctx, { body: state.proto, hash: state.json.hash }, v2ProtobufContentType);
}

function serveV3Document(ctx: RequestContext, key: string, d: Doc): Response {
  if (pick(ctx.request.headers.get('accept'), [{ subtype: 'json', value: 'json' }]) === undefined)
    return notAcceptable(ctx, ['application/json']);
  const requested = ctx.query.get('hash');
  if (requested !== null && requested !== '') {
    if (requested !== d.hash) {
      const headers = baseHeaders(ctx, 'text/html; charset=utf-8');
      headers.set('Location', `/openapi/v3/${key}?hash=${d.hash}`);
      return new Response(null, { status: 301, headers });
    }
    const expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString();
    return serve(ctx, d, 'application/json', { 'Cache-Control': 'public, immutable', Expires: expires });
  }
  return serve(ctx, d, 'application/json');
}
