/**
 * Which duplicate and unknown fields the real server's strict decoding
 * reports, and in what order. Decoding a body into a built-in type reports
 * both as it reads, in document order, and never looks inside a field it
 * does not know or inside raw-JSON fields; decoding a patch or YAML first
 * lists the problems of the document itself, then the unknown fields of the
 * result in sorted key order (the result went through a Go map).
 */

import type { PathSegment } from '../machinery/decode/json';
import { resolveSchema, type DefinitionSet, type SchemaNode } from '../machinery/schema';
import { isPlainObject } from '../machinery/json';
import { compareBytes } from '../machinery/go-format';

/** A field a finding is about, and where its repeat fell among its siblings (duplicates only). */
export interface FieldAt {
  segments: readonly PathSegment[];
  keysBefore?: number;
}

/** Splits a strict-decoding path (`spec.containers[0].name`) back into steps; keys with dots are ambiguous. */
export function pathSegments(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    out.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? ''));
  return out;
}

/**
 * Whether decoding into the kind's type reports a repeat of this field: not
 * inside a field the type does not know, nor inside a raw-JSON field (those
 * keep their bytes unread).
 */
export function typedDecoderSees(
  defs: DefinitionSet,
  root: SchemaNode,
  segments: readonly PathSegment[],
): boolean {
  let node: SchemaNode | undefined = root;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    node = resolveSchema(defs, node);
    if (node === undefined) return false;
    if (node.preserveUnknownFields === true && node.properties === undefined) return true; // untyped: read key by key
    if (typeof s === 'number') {
      node = node.items;
      continue;
    }
    if (node.properties !== undefined && s !== undefined && Object.hasOwn(node.properties, s)) {
      node = node.properties[s];
      continue;
    }
    if (node.additionalProperties === true) return true; // a map of untyped values: read key by key
    if (typeof node.additionalProperties === 'object') {
      node = node.additionalProperties;
      continue;
    }
    // An unknown field, or the inside of a raw-JSON value: the last step may still be a known field of a struct.
    return false;
  }
  return true;
}

function rank(root: unknown, at: FieldAt): number[] {
  const ranks: number[] = [];
  let node = root;
  const last = at.segments.length - 1;
  at.segments.forEach((s, i) => {
    if (i === last && at.keysBefore !== undefined) {
      ranks.push(at.keysBefore - 0.5);
      return;
    }
    if (typeof s === 'number') {
      ranks.push(s);
      node = Array.isArray(node) ? (node[s] as unknown) : undefined;
      return;
    }
    const keys = isPlainObject(node) ? Object.keys(node) : [];
    const k = keys.indexOf(s);
    ranks.push(k < 0 ? keys.length : k);
    node = isPlainObject(node) ? node[s] : undefined;
  });
  return ranks;
}

function compareVectors<T>(a: readonly T[], b: readonly T[], cmp: (x: T, y: T) => number): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = cmp(a[i] as T, b[i] as T);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

/** Orders findings as a decoder reading `root`'s text from the top would meet them. */
export function inDocumentOrder<T extends FieldAt>(root: unknown, items: readonly T[]): T[] {
  const ranked = items.map((item) => ({ item, r: rank(root, item) }));
  ranked.sort((x, y) => compareVectors(x.r, y.r, (p, q) => p - q));
  return ranked.map((x) => x.item);
}

function compareSegments(a: PathSegment, b: PathSegment): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareBytes(String(a), String(b));
}

/** Orders paths as a Go map walk in sorted key order meets them. */
export function inSortedOrder(paths: readonly string[]): string[] {
  return paths
    .map((p) => ({ p, s: pathSegments(p) }))
    .sort((x, y) => compareVectors(x.s, y.s, compareSegments))
    .map((x) => x.p);
}
