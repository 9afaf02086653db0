/**
 * Query options shared by several verbs: dryRun, resourceVersion parsing,
 * and the wait for a resourceVersion the server has not reached yet (the
 * real server waits up to 3 seconds, then answers 504 Too large resource
 * version with Retry-After).
 */

import { badRequest, tooLargeResourceVersion } from '../machinery/errors';
import type { Storage } from '../storage/types';

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

/** Resolves once the store has reached `revision`; after `timeoutMs` answers 504 Too large resource version. */
export async function waitForRevision(
  storage: Storage,
  revision: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  if (revision <= (await storage.currentRevision())) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      off();
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const off = storage.onCommit((c) => {
      if (c.revision >= revision) done();
    });
    const timer = setTimeout(done, timeoutMs);
    signal?.addEventListener('abort', done);
  });
  const current = await storage.currentRevision();
  if (revision > current) throw tooLargeResourceVersion(revision, current);
}
