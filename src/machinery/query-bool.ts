/**
 * Boolean query parameters as the real server reads them. Options decoded
 * into a Go struct (`watch`, `allowWatchBookmarks`, `sendInitialEvents`,
 * `force`) follow the query conversion: absent is false, `0`, `f` and
 * `false` (any case) are false, anything else — even empty — is true.
 * `pretty` follows strconv.ParseBool instead, where anything it cannot
 * parse is false.
 */

/** The value of a Go-struct boolean option, or undefined when absent. */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const values = query.getAll(name);
  if (values.length === 0) return undefined;
  const v = (values[0] ?? '').toLowerCase();
  return !(v === '0' || v === 'f' || v === 'false');
}

/** A boolean option that is false when absent. */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  return queryBool(query, name) === true;
}

/** strconv.ParseBool: 1/t/true true, 0/f/false false (the usual cases), undefined for anything else. */
export function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}
