/**
 * Decodes a JWT for reading — its header and claims, and when it expires —
 * without verifying it: the server verifies; the page only shows what the
 * token says, so a learner can see the issuer, audiences, subject and the
 * pod it is bound to.
 */

import { decodeJwt as decodeJwtPayload, decodeProtectedHeader } from 'jose';

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

export function decodeJwt(token: string): DecodedJwt {
  // jose's own check says only "Invalid JWT"; the learner is told what is wrong with what they pasted.
  const parts = token.split('.').length;
  if (parts !== 3) throw new Error(`a JWT has three parts, this has ${parts}`);
  return { header: decodeProtectedHeader(token), claims: decodeJwtPayload(token) };
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
