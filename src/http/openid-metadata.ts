/**
 * The service-account issuer's public metadata, at the real paths: the
 * OIDC discovery document (`/.well-known/openid-configuration`,
 * `application/json`) and the keys that verify its tokens
 * (`/openid/v1/jwks`, `application/jwk-set+json`), so relying parties
 * outside the cluster can check its tokens. Both are cacheable for an hour.
 * As the real server's routes, each produces one media type: an `Accept`
 * that allows neither it nor `*∕*` is a 406, and any method but GET a 405.
 * The real router answers those two in plain text; here they are Status
 * bodies like every other error (decision 0023). Not served (404) while the
 * issuer is not an `https` URL.
 */

import type { RequestContext } from './context';
import type { IssuerMetadata, ServerContext } from './server-context';
import { baseHeaders } from './respond';
import { methodNotAllowed, notAcceptable, pathNotFound } from '../machinery/errors';

export const openIdConfigurationPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';

const jwksMediaType = 'application/jwk-set+json';
const cacheControl = 'public, max-age=3600';

/** go-jose's field order of a public JWK. */
const jwkFieldOrder = ['use', 'kty', 'kid', 'crv', 'alg', 'k', 'x', 'y', 'n', 'e'];

function orderedJwk(key: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of jwkFieldOrder) if (key[field] !== undefined) out[field] = key[field];
  return out;
}

/** go-restful's `Accept` matching: empty means anything; otherwise one entry must be `*∕*` or the type itself. */
function accepts(header: string | null, mediaType: string): boolean {
  if (header === null || header.trim() === '') return true;
  return header
    .split(',')
    .map((part) => (part.split(';')[0] ?? '').trim())
    .some((t) => t === '*/*' || t === mediaType);
}

export function isOpenIdMetadataPath(path: string): boolean {
  return path === openIdConfigurationPath || path === jwksPath;
}

/**
 * The JWKS address the document names by default: at the server's advertised address, as the real one at
 * its external address — never taken from the request alone while another is known, since the answer is
 * cacheable by anyone (`public`) and a forged `Host` would otherwise be served to every later reader.
 */
function defaultJwksURI(metadata: Pick<IssuerMetadata, 'advertisedURL'>, host: string): string {
  if (metadata.advertisedURL !== undefined && URL.canParse(metadata.advertisedURL))
    return new URL(jwksPath, metadata.advertisedURL).href;
  return `https://${host}${jwksPath}`;
}

/** The issuer's metadata with its keys read. */
type KeyedMetadata = Omit<IssuerMetadata, 'keys'> & { keys: readonly Readonly<Record<string, unknown>>[] };

/** The discovery document: `jwks_uri` from the flag, else at the advertised address (the reached one when none is known). */
export function openIdConfiguration(metadata: KeyedMetadata, host: string): Record<string, unknown> {
  const algorithms = [...new Set(metadata.keys.map((k) => k['alg']).filter((a) => typeof a === 'string'))];
  return {
    issuer: metadata.issuer,
    jwks_uri: metadata.jwksURI ?? defaultJwksURI(metadata, host),
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algorithms.sort(),
  };
}

export async function handleOpenIdMetadata(
  server: ServerContext,
  ctx: RequestContext,
  path: string,
): Promise<Response> {
  const metadata = server.issuerMetadata?.();
  if (metadata === undefined) throw pathNotFound();
  if (ctx.request.method.toUpperCase() !== 'GET') throw methodNotAllowed();
  const mediaType = path === jwksPath ? jwksMediaType : 'application/json';
  if (!accepts(ctx.request.headers.get('accept'), mediaType)) throw notAcceptable([mediaType]);
  const keys = await metadata.keys();
  const body =
    path === jwksPath
      ? { keys: keys.map(orderedJwk) }
      : openIdConfiguration({ ...metadata, keys }, ctx.url.host);
  const headers = baseHeaders(ctx, mediaType);
  headers.set('Cache-Control', cacheControl);
  return new Response(JSON.stringify(body), { status: 200, headers });
}
