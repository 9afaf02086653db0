/**
 * What the server takes from the `yaml` package: loaded on first use (see
 * machinery/lazy-module.ts and yaml-library.ts), since most requests to the
 * in-browser server are JSON and its default settings need no YAML.
 */

export {
  Composer,
  LineCounter,
  Parser,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parse,
  parseAllDocuments,
  stringify,
  visit,
} from 'yaml';
