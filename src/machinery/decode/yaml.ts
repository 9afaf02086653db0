/**
 * Duplicate-aware YAML decoding with the `yaml` package's document API: the
 * value of the first document (the last of repeated keys wins, as the real
 * server's YAML-to-JSON conversion keeps it), and every repeated key with
 * its line, worded as the real server's strict YAML decoder words them
 * (`line 5: key "name" already set in map`) and with its path.
 */

import {
  LineCounter,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Node as YamlNode,
} from 'yaml';
import { goFloat, goQuote } from '../go-format';
import { formatPath, type PathSegment } from './json';

export interface YamlDuplicate {
  path: string;
  segments: PathSegment[];
  line: number;
  /** `line 5: key "name" already set in map`. */
  message: string;
}

export interface DecodedYaml {
  value: unknown;
  duplicates: YamlDuplicate[];
}

export class YamlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'YamlSyntaxError';
  }
}

/** The strict decoder's error listing every repeated key: `yaml: unmarshal errors:\n  line 5: ...`. */
export function yamlDuplicatesError(duplicates: readonly YamlDuplicate[]): string {
  return `yaml: unmarshal errors:\n  ${duplicates.map((d) => d.message).join('\n  ')}`;
}

/** Go's `%#v` of a decoded YAML map key. */
function goKey(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : goFloat(value);
  if (typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'interface {}(nil)';
  return JSON.stringify(value);
}

/** Identity of a key as a Go map of interface{} compares it: by type and value. */
function keyIdentity(value: unknown): string {
  return `${typeof value}:${String(value)}`;
}

export function decodeYaml(text: string): DecodedYaml {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { uniqueKeys: false, schema: 'core', lineCounter });
  const doc = Array.isArray(docs) ? docs[0] : undefined;
  if (doc === undefined) return { value: null, duplicates: [] };
  const error = doc.errors[0];
  if (error !== undefined) {
    const pos = lineCounter.linePos(error.pos[0]);
    throw new YamlSyntaxError(`yaml: line ${pos.line}: ${firstLine(error.message)}`, pos.line, pos.col);
  }
  const duplicates: YamlDuplicate[] = [];
  const walk = (node: unknown, path: PathSegment[]): void => {
    if (isAlias(node)) return; // its target was walked where it is defined
    if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i]));
      return;
    }
    if (!isMap(node)) return;
    const seen = new Set<string>();
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const keyNode = pair.key as YamlNode | null;
      const key: unknown = isScalar(keyNode) ? keyNode.value : keyNode;
      const id = keyIdentity(key);
      const segment = typeof key === 'string' ? key : String(key);
      if (seen.has(id)) {
        const line =
          keyNode?.range !== undefined && keyNode.range !== null
            ? lineCounter.linePos(keyNode.range[0]).line
            : 0;
        const segments = [...path, segment];
        duplicates.push({
          path: formatPath(segments),
          segments,
          line,
          message: `line ${line}: key ${goKey(key)} already set in map`,
        });
        continue; // the strict decoder does not read a repeated key's value
      }
      seen.add(id);
      walk(pair.value, [...path, segment]);
    }
  };
  walk(doc.contents, []);
  return { value: doc.toJS({ maxAliasCount: 100 }) as unknown, duplicates };
}

function firstLine(message: string): string {
  const cut = message.indexOf('\n');
  return (cut < 0 ? message : message.slice(0, cut)).replace(/ at line \d+, column \d+:?$/, '');
}
