/**
 * The rules of bootstrap token Secrets, shared by the authenticator, the
 * token cleaner and the bootstrap signer (which live in different layers):
 * the token form `<id>.<secret>`, the Secret `bootstrap-token-<id>` of type
 * `bootstrap.<domain>/token` in the system namespace, its `data` keys,
 * expiration (RFC 3339; unparseable counts as expired, as upstream) and the
 * `auth-extra-groups` rule, plus the names of the public discovery
 * ConfigMap `cluster-info` and its keys.
 */

import type { KubeObject } from '../api/meta';
import { decodeBase64Text } from './base64-text';
import type { NamingProfile } from './naming';

export const bootstrapTokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const bootstrapSecretPrefix = 'bootstrap-token-';
export const bootstrapUserPrefix = 'system:bootstrap:';
export const bootstrapDefaultGroup = 'system:bootstrappers';
const bootstrapSecretNamePattern = /^bootstrap-token-([a-z0-9]{6})$/;
const bootstrapGroupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
// Go's time.RFC3339 layout: a `T`, seconds, optional fraction, `Z` or a numeric offset.
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The discovery ConfigMap's name, in the public namespace. */
export const clusterInfoName = 'cluster-info';

/** The Secret type of bootstrap tokens: `bootstrap.orch.io/token` (upstream `bootstrap.kubernetes.io/token`). */
export function bootstrapTokenSecretType(profile: NamingProfile): string {
  return profile.subPrefixed('bootstrap', 'token');
}

/** The cluster-info key holding the client configuration: `orchconfig` (upstream `kubeconfig`). */
export function clusterInfoConfigKey(profile: NamingProfile): string {
  return `${profile.shortWord}config`;
}

/** The prefix of the signature keys in cluster-info: `jws-orchconfig-` (upstream `jws-kubeconfig-`). */
export function clusterInfoSignaturePrefix(profile: NamingProfile): string {
  return `jws-${clusterInfoConfigKey(profile)}-`;
}

/** The token id a Secret's name carries, if it has the `bootstrap-token-<id>` form. */
export function tokenIdOfSecretName(name: string): string | undefined {
  return bootstrapSecretNamePattern.exec(name)?.[1];
}

/** A Secret's `data[key]`, decoded from base64 ('' when absent or not base64). */
export function secretData(secret: KubeObject, key: string): string {
  const data = secret['data'];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return '';
  const value = (data as Record<string, unknown>)[key];
  if (typeof value !== 'string') return '';
  try {
    return decodeBase64Text(value);
  } catch {
    return '';
  }
}

/** `system:bootstrappers` plus the valid extra groups, sorted; an error text for an invalid one. */
export function bootstrapGroups(extra: string): string[] | string {
  const groups = new Set([bootstrapDefaultGroup]);
  if (extra === '') return [...groups];
  for (const group of extra.split(',')) {
    if (!bootstrapGroupPattern.test(group)) {
      return `bootstrap group "${group}" is invalid (must match ${bootstrapGroupPattern.source})`;
    }
    groups.add(group);
  }
  return [...groups].sort();
}

/**
 * How long until the Secret's `expiration`: `expired` once it has passed (or
 * when it cannot be parsed), else the milliseconds left (`undefined` for a
 * token without expiration).
 */
export function bootstrapTokenExpiry(
  secret: KubeObject,
  now: number,
): { expired: true } | { expired: false; ttlMs: number | undefined } {
  const expiration = secretData(secret, 'expiration');
  if (expiration === '') return { expired: false, ttlMs: undefined };
  const at = rfc3339.test(expiration) ? Date.parse(expiration) : NaN;
  if (Number.isNaN(at) || at - now <= 0) return { expired: true };
  return { expired: false, ttlMs: at - now };
}

/** Whether the secret's `expiration` has passed; an unparseable one counts as expired (as on the real server). */
export function bootstrapTokenExpired(secret: KubeObject, now: number): boolean {
  return bootstrapTokenExpiry(secret, now).expired;
}

/**
 * The token `<id>.<secret>` a Secret lets the bootstrap signer sign with, as
 * the real signer validates it: a bootstrap token Secret named for its
 * `token-id`, with a `token-secret`, not expired, `usage-bootstrap-signing`
 * exactly `true`. Undefined otherwise.
 */
export function signingToken(
  secret: KubeObject,
  profile: NamingProfile,
  now: number,
): { id: string; token: string } | undefined {
  if (secret['type'] !== bootstrapTokenSecretType(profile)) return undefined;
  const id = tokenIdOfSecretName(secret.metadata?.name ?? '');
  if (id === undefined || secretData(secret, 'token-id') !== id) return undefined;
  const tokenSecret = secretData(secret, 'token-secret');
  if (tokenSecret === '') return undefined;
  if (bootstrapTokenExpired(secret, now)) return undefined;
  if (secretData(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, token: `${id}.${tokenSecret}` };
}
