/**
 * Deterministic, diff-friendly JSON for the generated files: the outer
 * structure is indented, and the unit a reviewer cares about (a definition, a
 * resource, a protobuf message) sits on one line, so that a change upstream
 * shows up as a one-line diff.
 */

import type { JsonValue } from '../../src/api/meta';

type Path = readonly (string | number)[];

/** Decides whether the value at `path` is written on one line. */
export type InlinePredicate = (value: JsonValue, path: Path) => boolean;

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Copies `value` with every object's keys in code-point order (arrays keep their order). */
export function sortKeysDeep(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (!isObject(value)) return value;
  const out: { [key: string]: JsonValue } = {};
  for (const key of Object.keys(value).sort(byCodePoint)) {
    const child = value[key];
    if (child !== undefined) out[key] = sortKeysDeep(child);
  }
  return out;
}

/** Writes `value` with two-space indentation, keeping nodes chosen by `inline` on one line. */
export function formatJson(value: JsonValue, inline: InlinePredicate): string {
  const write = (node: JsonValue, path: Path, indent: string): string => {
    if (node === null || typeof node !== 'object' || inline(node, path)) return JSON.stringify(node);
    const inner = `${indent}  `;
    if (Array.isArray(node)) {
      if (node.length === 0) return '[]';
      const items = node.map((item, i) => inner + write(item, [...path, i], inner));
      return `[\n${items.join(',\n')}\n${indent}]`;
    }
    const entries = Object.entries(node);
    if (entries.length === 0) return '{}';
    const lines = entries.map(
      ([key, child]) => `${inner}${JSON.stringify(key)}: ${write(child, [...path, key], inner)}`,
    );
    return `{\n${lines.join(',\n')}\n${indent}}`;
  };
  return `${write(value, [], '')}\n`;
}
