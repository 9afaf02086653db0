/**
 * Converts JSON data to CEL values by its declared type: integers to
 * `bigint`, formatted strings to bytes, timestamps and durations, objects to
 * instances of their object type (escaped field names, undeclared fields
 * left out), lists with their set/map semantics. A formatted string that
 * does not parse becomes an error raised only when a rule reads it, as in
 * the real server; data of no declared type converts structurally (`dyn`).
 */

import type { JsonValue } from '../api/meta';
import { celError } from './errors';
import { parseDuration, parseTimestamp } from './time';
import type { DeclType } from './types';
import { withListKind } from './values';

/** Thrown, instead of a value, when data does not fit its type; object fields defer it to the read. */
class InvalidValue {
  constructor(readonly message: string) {}
}

export function toCel(value: JsonValue, type: DeclType | undefined): unknown {
  const converted = convert(value, type);
  if (converted instanceof InvalidValue) throw celError(converted.message);
  return converted;
}

function convert(value: JsonValue, type: DeclType | undefined): unknown {
  if (value === null) return null;
  if (type === undefined || type.kind === 'dyn') return dynamic(value);
  switch (type.kind) {
    case 'object':
      return isRecord(value) ? object(value, type) : value;
    case 'map': {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = orThrow(convert(v, type.elem));
      return out;
    }
    case 'list':
      return Array.isArray(value)
        ? withListKind(
            value.map((v) => orThrow(convert(v, type.elem))),
            type.listKind,
          )
        : value;
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'bytes':
      return typeof value === 'string' ? base64(value) : value;
    case 'timestamp':
      return typeof value === 'string' ? parsed(() => parseTimestamp(value, type.dateOnly === true)) : value;
    case 'duration':
      return typeof value === 'string' ? parsed(() => parseDuration(value)) : value;
    default:
      return value;
  }
}

function object(value: Record<string, JsonValue>, type: DeclType): Record<string, unknown> {
  const obj = new type.ctor!();
  for (const [name, field] of type.fields!) {
    const raw = value[field.jsonName];
    if (raw === undefined || (raw === null && !field.nullable)) continue;
    const v = convert(raw, field.type);
    if (v instanceof InvalidValue) {
      Object.defineProperty(obj, name, {
        enumerable: true,
        get() {
          throw celError(v.message);
        },
      });
    } else obj[name] = v;
  }
  return obj;
}

function orThrow(v: unknown): unknown {
  if (v instanceof InvalidValue) throw celError(v.message);
  return v;
}

function parsed(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    return new InvalidValue(e instanceof Error ? e.message : String(e));
  }
}

function base64(text: string): unknown {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return new InvalidValue(`illegal base64 data: ${JSON.stringify(text)}`);
  }
}

/** Untyped data (int-or-string, dynamic admission objects): integral numbers are ints, objects maps. */
export function dynamic(value: JsonValue): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number')
    return Number.isInteger(value) && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(dynamic);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = dynamic(v);
  return out;
}

function isRecord(value: JsonValue): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
