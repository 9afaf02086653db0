/**
 * The JSON side of a backend's answer, as a webhook server writes it: read
 * the AdmissionReview it was sent, and write a reply of the same
 * apiVersion whose response echoes the request's uid. A response may carry
 * `patch` as a list of operations: it is sent base64-encoded with
 * `patchType: JSONPatch`, as the contract wants.
 */

import type { JsonObject, JsonValue } from '../../api/meta';
import { isPlainObject } from '../../machinery/json';

export interface ParsedReview {
  apiVersion: string;
  request: Record<string, JsonValue>;
}

/** The review a backend was sent; undefined when the body is not one (the backend then answers 400, as a server would). */
export function parseReview(body: string): ParsedReview | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed) || typeof parsed.apiVersion !== 'string' || !isPlainObject(parsed.request))
    return undefined;
  return { apiVersion: parsed.apiVersion, request: parsed.request as Record<string, JsonValue> };
}

/** The reply to `review` carrying `response` (uid filled in when absent, a patch list encoded). */
export function replyFor(review: ParsedReview, response: Record<string, unknown>): string {
  const out = encodePatch({ uid: review.request.uid ?? '', ...response });
  const reply: JsonObject = {
    apiVersion: review.apiVersion,
    kind: 'AdmissionReview',
    response: out as JsonObject,
  };
  return JSON.stringify(reply);
}

/** A response whose `patch` is a list of operations, with the patch base64-encoded as the contract wants. */
export function encodePatch(response: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(response.patch)) return response;
  return {
    ...response,
    patch: base64(JSON.stringify(response.patch)),
    patchType: response.patchType ?? 'JSONPatch',
  };
}

export function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
