/**
 * Duplicate-aware YAML decoding with the `yaml` package's document API: the
 * value of the first document (the last of repeated keys wins, as the real
 * server's YAML-to-JSON conversion keeps it), and every repeated key with
 * its line, worded as the real server's strict YAML decoder words them
 * (`line 5: key "name" already set in map`) and with its path.
 *
 * Hostile documents are refused as go-yaml refuses them, before the value
 * is built: alias expansion that does most of the decoding work
 * (`yaml: document contains excessive aliasing`, go-yaml's ratio rule, so a
 * billion laughs stops after a few thousand nodes) and nesting deeper than
 * the JSON decoder allows (`yaml: exceeded max depth of N`).
 *
 * The library is loaded on first use (yaml-library.ts): callers await
 * `yamlLibrary.load()` first.
 */

import type { Node as YamlNode } from 'yaml';
import { goFloat, goQuote } from '../go-format';
import { formatPath, maxNestingDepth, type PathSegment } from './json';
import { yamlLibrary } from './yaml-library';

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

const tooDeep = `yaml: exceeded max depth of ${maxNestingDepth}`;

/**
 * go-yaml's share of a document's decoding that alias expansion may do:
 * 99% up to 400,000 decoded nodes, falling to 10% at 4,000,000.
 */
function allowedAliasRatio(decodeCount: number): number {
  const low = 400_000;
  const high = 4_000_000;
  if (decodeCount <= low) return 0.99;
  if (decodeCount >= high) return 0.1;
  return 0.99 - (0.89 * (decodeCount - low)) / (high - low);
}

/**
 * Walks the document as go-yaml decodes it, aliases expanded, without
 * building anything: counts nodes as go-yaml's `decoder.unmarshal` does and
 * fails the same way when expansion dominates, and bounds the depth.
 * Iterative, so a deep document cannot overflow the stack here.
 */
function checkExpansion(doc: { contents: unknown }, resolve: (alias: unknown) => unknown): void {
  const { isAlias, isMap, isPair, isSeq } = yamlLibrary.get();
  let decodeCount = 0;
  let aliasCount = 0;
  const stack: { node: unknown; depth: number; aliased: boolean }[] = [
    { node: doc.contents, depth: 0, aliased: false },
  ];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    let { node, aliased } = top;
    const { depth } = top;
    decodeCount++;
    if (aliased) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount))
      throw new YamlSyntaxError('yaml: document contains excessive aliasing', 0, 0);
    if (isAlias(node)) {
      node = resolve(node);
      aliased = true;
    }
    if (isSeq(node) || isMap(node)) {
      if (depth >= maxNestingDepth) throw new YamlSyntaxError(tooDeep, 0, 0);
      for (const item of node.items) {
        if (isPair(item)) {
          stack.push({ node: item.value, depth: depth + 1, aliased });
          stack.push({ node: item.key, depth: depth + 1, aliased });
        } else stack.push({ node: item, depth: depth + 1, aliased });
      }
    }
  }
}

/**
 * True when flow brackets (outside quotes and comments) nest deeper than the
 * limit: checked before parsing, because the parser's cost on a document of
 * nothing but `[` grows faster than its length.
 */
function flowTooDeep(text: string): boolean {
  let depth = 0;
  const n = text.length;
  let lineStart = true;
  for (let i = 0; i < n; i++) {
    const c = text[i];
    if (lineStart) {
      // Compact block sequences (`- - - x`) nest one level per dash on a single line.
      let dashes = 0;
      while (i < n && (text[i] === ' ' || (text[i] === '-' && text[i + 1] === ' '))) {
        if (text[i] === '-') dashes++;
        i++;
      }
      if (dashes > maxNestingDepth) return true;
      lineStart = false;
      i--;
      continue;
    }
    if (c === '\n') lineStart = true;
    else if (c === '[' || c === '{') {
      if (++depth > maxNestingDepth) return true;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === '"' || c === "'") {
      for (i++; i < n && text[i] !== c; i++) if (c === '"' && text[i] === '\\') i++;
    } else if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      while (i < n && text[i + 1] !== '\n') i++;
    }
  }
  return false;
}

export function decodeYaml(text: string): DecodedYaml {
  if (flowTooDeep(text)) throw new YamlSyntaxError(tooDeep, 0, 0);
  try {
    return decodeYamlDocument(text);
  } catch (e) {
    // The parser and composer recurse per level; a document nested far past the limit overflows them first.
    if (e instanceof RangeError) throw new YamlSyntaxError(tooDeep, 0, 0);
    throw e;
  }
}

function decodeYamlDocument(text: string): DecodedYaml {
  const { Composer, LineCounter, Parser, isAlias, isMap, isPair, isScalar, isSeq, visit } = yamlLibrary.get();
  const lineCounter = new LineCounter();
  // Only the first document is read, as go-yaml reads it: the stream is composed lazily and left after it
  // (a body of 100,000 documents costs one).
  const composer = new Composer({ uniqueKeys: false, schema: 'core' });
  const parser = new Parser(lineCounter.addNewLine);
  const documents = composer.compose(parser.parse(text));
  const first = documents.next();
  void documents.return(undefined);
  if (first.done === true) return { value: null, duplicates: [] };
  const doc = first.value;
  const error = doc.errors[0];
  // The library reports its own stack overflow as a document error.
  if (doc.errors.some((e) => e.message.includes('Maximum call stack size exceeded')))
    throw new YamlSyntaxError(tooDeep, 0, 0);
  if (error !== undefined) {
    const pos = lineCounter.linePos(error.pos[0]);
    throw new YamlSyntaxError(`yaml: line ${pos.line}: ${firstLine(error.message)}`, pos.line, pos.col);
  }
  const aliasError = (message: string, alias: YamlNode): YamlSyntaxError => {
    const pos = alias.range ? lineCounter.linePos(alias.range[0]) : { line: 0, col: 0 };
    return new YamlSyntaxError(message, pos.line, pos.col);
  };
  // Each alias's target, found in one pass in document order (`Alias.resolve` searches the whole document per call).
  const anchors = new Map<string, unknown>();
  const targets = new Map<unknown, unknown>();
  visit(doc, {
    Alias(_key, alias, path) {
      const target = anchors.get(alias.source);
      // go-yaml's parser knows only anchors already read, and its decoder refuses an alias inside its own anchor.
      if (target === undefined) throw aliasError(`yaml: unknown anchor '${alias.source}' referenced`, alias);
      if (path.includes(target as YamlNode))
        throw aliasError(`yaml: anchor '${alias.source}' value contains itself`, alias);
      targets.set(alias, target);
    },
    Node(_key, node) {
      if (node.anchor !== undefined) anchors.set(node.anchor, node);
    },
  });
  checkExpansion(doc, (alias) => targets.get(alias));
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
  // Expansion was bounded above (go-yaml's rule, not the library's flat alias count).
  return { value: doc.toJS({ maxAliasCount: -1 }) as unknown, duplicates };
}

function firstLine(message: string): string {
  const cut = message.indexOf('\n');
  return (cut < 0 ? message : message.slice(0, cut)).replace(/ at line \d+, column \d+:?$/, '');
}
