/**
 * DeleteOptions from a DELETE's body (JSON, as kubectl sends it) and query
 * (gracePeriodSeconds, propagationPolicy, orphanDependents, dryRun).
 */

import { badRequest } from '../machinery/errors';
import { isPlainObject } from '../machinery/json';
import { readBodyText } from './body';
import type { DeleteOptions } from '../registry/rest/capabilities';
import { parseDryRun } from './options';

export interface ParsedDelete {
  options: DeleteOptions;
  dryRun: boolean;
}

export async function parseDeleteOptions(request: Request, query: URLSearchParams): Promise<ParsedDelete> {
  const text = (await readBodyText(request)).trim();
  let body: Record<string, unknown> = {};
  if (text !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw badRequest(`error decoding DeleteOptions: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!isPlainObject(parsed)) throw badRequest('DeleteOptions must be a JSON object');
    body = parsed;
  }
  const options: DeleteOptions = {};
  const grace =
    query.get('gracePeriodSeconds') ??
    (typeof body.gracePeriodSeconds === 'number' ? String(body.gracePeriodSeconds) : null);
  if (grace !== null) {
    if (!/^-?[0-9]+$/.test(grace)) throw badRequest(`invalid gracePeriodSeconds: ${grace}`);
    options.gracePeriodSeconds = Number(grace);
  }
  const policy =
    query.get('propagationPolicy') ??
    (typeof body.propagationPolicy === 'string' ? body.propagationPolicy : null);
  if (policy !== null) {
    if (policy !== 'Orphan' && policy !== 'Background' && policy !== 'Foreground')
      throw badRequest(
        `propagationPolicy: Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
      );
    options.propagationPolicy = policy;
  }
  const orphan =
    query.get('orphanDependents') ??
    (typeof body.orphanDependents === 'boolean' ? String(body.orphanDependents) : null);
  if (orphan !== null) options.orphanDependents = orphan === 'true';
  if (isPlainObject(body.preconditions)) {
    const p = body.preconditions;
    options.preconditions = {
      ...(typeof p.uid === 'string' ? { uid: p.uid } : {}),
      ...(typeof p.resourceVersion === 'string' ? { resourceVersion: p.resourceVersion } : {}),
    };
  }
  const bodyDry = Array.isArray(body.dryRun) ? body.dryRun.includes('All') : false;
  return { options, dryRun: parseDryRun(query) || bodyDry };
}
