/**
 * JSON merge patch (RFC 7386): objects merge key by key, `null` deletes a
 * key, anything else (including arrays) replaces the target value.
 */

import type { JsonValue } from '../api/meta';

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}

/**
 * `applyMergePatch` into a target the caller owns (a fresh copy of the stored object): objects are changed
 * in place rather than copied level by level, so a one-key patch of a wide map costs one key, not the map.
 */
export function applyMergePatchInPlace(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? target : {};
  for (const key in patch) {
    const value = patch[key];
    if (value === null) delete result[key];
    else result[key] = applyMergePatchInPlace(result[key], value);
  }
  return result;
}
