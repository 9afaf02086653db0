/**
 * The API error checks controllers branch on, as client-go's `apierrors`
 * helpers: by the Status reason and causes the server sent, never by text.
 */

import { ApiError } from './errors';

export function isNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.code === 404;
}

export function isConflict(e: unknown): boolean {
  return e instanceof ApiError && e.code === 409 && e.reason === 'Conflict';
}

export function isAlreadyExists(e: unknown): boolean {
  return e instanceof ApiError && e.reason === 'AlreadyExists';
}

/** A create refused because its namespace is being deleted (the `NamespaceTerminating` cause). */
export function isNamespaceTerminating(e: unknown): boolean {
  return (
    e instanceof ApiError && (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating')
  );
}
