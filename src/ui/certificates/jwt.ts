/**
 * Decodes a JWT for reading — its header and claims, and when it expires —
 * without verifying it: the server verifies; the page only shows what the
 * token says, so a learner can see the issuer, audiences, subject and the
 * pod it is bound to.
 */

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

function base64urlJson(part: string): Record<string, unknown> {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('a JWT part is not a JSON object');
  return value as Record<string, unknown>;
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(`a JWT has three parts, this has ${parts.length}`);
  return { header: base64urlJson(parts[0] ?? ''), claims: base64urlJson(parts[1] ?? '') };
}

/** A NumericDate claim (`exp`, `iat`, `nbf`) as a Date. */
export function claimDate(claims: Record<string, unknown>, name: string): Date | undefined {
  const value = claims[name];
  return typeof value === 'number' ? new Date(value * 1000) : undefined;
}

/** `aud` is a string or a list of strings. */
export function audiencesOf(claims: Record<string, unknown>): string[] {
  const aud = claims['aud'];
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** The user a service account's token authenticates as, and its groups. */
export function serviceAccountUser(namespace: string, name: string): { username: string; groups: string[] } {
  return {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}
