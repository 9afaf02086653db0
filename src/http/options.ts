/**
 * Query options shared by several verbs: dryRun and resourceVersion
 * parsing. (Waiting for a resourceVersion the server has not reached is the
 * store's, see `registry/generic/revisions.ts`.)
 */

import { badRequest } from '../machinery/errors';

/** `dryRun=All` → true; absent or empty → false; anything else 400. */
export function parseDryRun(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  let dry = false;
  for (const v of values) {
    if (v === 'All') dry = true;
    else if (v !== '') throw badRequest(`Invalid dryRun value: "${v}": supported values: "All"`);
  }
  return dry;
}

export function parseResourceVersion(text: string): number {
  if (!/^[0-9]+$/.test(text) || text.length > 19) {
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
  return Number(text);
}
