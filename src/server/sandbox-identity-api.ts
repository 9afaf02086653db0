/**
 * The identity part of the sandbox API: the built-in identities with their
 * credentials (`GET /sandbox/v1/identities`, answered once the server is
 * ready since identities other than the admin need the default RBAC policy;
 * with `?certificates=deferred`, answered as soon as the server serves, a
 * certificate not issued yet left out and marked), and the sandbox's own OIDC
 * issuer — its discovery document and keys, and `POST
 * /sandbox/v1/oidc/token` minting an id_token for a chosen subject and
 * groups, so OIDC can be tried offline.
 */

import { badRequest, methodNotAllowed, pathNotFound } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import { discoveryPath, jwksPath } from '../auth/oidc-issuer/index';
import type { RequestContext } from '../http/context';
import { readBodyText } from '../http/body';
import { respondValue } from '../http/respond';
import type { BuiltInIdentity, Identity } from './identity';

export const identitiesPath = '/sandbox/v1/identities';
export const oidcTokenPath = '/sandbox/v1/oidc/token';

/** True for the paths this module serves. */
export function isIdentityApiPath(path: string): boolean {
  return path === identitiesPath || path.startsWith('/sandbox/v1/oidc/');
}

/** The issuer's discovery document and keys are public, as a real issuer's are. */
export function isPublicIdentityPath(method: string, path: string): boolean {
  return method === 'GET' && (path === discoveryPath || path === jwksPath);
}

export async function handleIdentityApi(
  identity: Identity,
  identities: (options: { certificates?: boolean }) => Promise<BuiltInIdentity[]>,
  ctx: RequestContext,
): Promise<Response> {
  const path = ctx.url.pathname.replace(/\/+$/, '');
  const method = ctx.request.method.toUpperCase();
  if (path === identitiesPath) {
    if (method !== 'GET') throw methodNotAllowed();
    // `?certificates=deferred`: answer at once, without issuing a certificate not issued yet (a page's first
    // call, which needs only the admin's token, does not wait for the X.509 library and the cluster CA).
    const certificates = ctx.url.searchParams.get('certificates');
    if (certificates !== null && certificates !== 'deferred')
      throw badRequest(`certificates: unsupported value "${certificates}" (only "deferred")`);
    return respondValue(ctx, 200, { items: await identities({ certificates: certificates === null }) });
  }
  if (path === discoveryPath) {
    if (method !== 'GET') throw methodNotAllowed();
    return respondValue(ctx, 200, identity.issuer.discovery());
  }
  if (path === jwksPath) {
    if (method !== 'GET') throw methodNotAllowed();
    return respondValue(ctx, 200, await identity.issuer.jwks());
  }
  if (path === oidcTokenPath) {
    if (method !== 'POST') throw methodNotAllowed();
    const text = await readBodyText(ctx.request);
    let body: unknown;
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      throw badRequest('the body must be JSON: {"sub": "...", "groups": ["..."]}');
    }
    if (!isPlainObject(body) || typeof body.sub !== 'string' || body.sub === '')
      throw badRequest('sub is required: {"sub": "...", "groups": ["..."]}');
    const groups = Array.isArray(body.groups)
      ? body.groups.filter((g): g is string => typeof g === 'string')
      : [];
    const expires = typeof body.expiresInSeconds === 'number' ? body.expiresInSeconds : 3600;
    if (!Number.isInteger(expires) || expires < 60 || expires > 86400)
      throw badRequest('expiresInSeconds must be an integer from 60 to 86400');
    const idToken = await identity.issuer.mint({
      sub: body.sub,
      audience: 'sandbox',
      groups,
      ...(typeof body.email === 'string' ? { email: body.email } : {}),
      expiresInSeconds: expires,
    });
    return respondValue(ctx, 200, { id_token: idToken, issuer: identity.issuer.issuerURL });
  }
  throw pathNotFound();
}
