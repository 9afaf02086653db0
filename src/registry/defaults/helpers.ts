/**
 * Small helpers the defaulters share. Go distinguishes pointer fields (nil
 * means unset, so 0 and "" are values) from value fields (the zero value
 * means unset); the helpers say which they mean.
 */

import type { NamingProfile } from '../../machinery/naming';
import { isPlainObject } from '../../machinery/json';

export type Obj = Record<string, unknown>;

export interface DefaultingContext {
  profile: NamingProfile;
  /** Whether a feature gate is on. */
  gate(name: string): boolean;
}

/** Defaults one definition's fields, in place. */
export type Defaulter = (obj: Obj, ctx: DefaultingContext) => void;

function unset(v: unknown): boolean {
  return v === undefined || v === null;
}

/** A pointer field: set when absent or null. */
export function ptr(o: Obj, key: string, value: unknown): void {
  if (unset(o[key])) o[key] = value;
}

/** A string value field: set when absent, null or empty. */
export function str(o: Obj, key: string, value: string): void {
  if (unset(o[key]) || o[key] === '') o[key] = value;
}

/** A number value field: set when absent, null or zero. */
export function num(o: Obj, key: string, value: number): void {
  if (unset(o[key]) || o[key] === 0) o[key] = value;
}

/** The object at `key`, created empty when absent (a Go value struct always exists). */
export function child(o: Obj, key: string): Obj {
  const v = o[key];
  if (isPlainObject(v)) return v;
  const made: Obj = {};
  o[key] = made;
  return made;
}

/** The object at `key` when present. */
export function maybe(o: Obj, key: string): Obj | undefined {
  const v = o[key];
  return isPlainObject(v) ? v : undefined;
}

/** The objects of the list at `key`. */
export function items(o: Obj | undefined, key: string): Obj[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

/** True when a list or map field is absent or empty (Go's `len(x) == 0`). */
export function empty(v: unknown): boolean {
  if (unset(v)) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return v === '';
}
