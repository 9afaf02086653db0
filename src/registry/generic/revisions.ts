/**
 * Reads at a resourceVersion: waiting for a version the store has not
 * reached yet (the real server waits up to 3 seconds, then answers 504 Too
 * large resource version with Retry-After), and the 410 of a continue token
 * whose snapshot was compacted away — which carries the current revision
 * so the HTTP layer can hand back a token that continues from there.
 */

import { StatusError, tooLargeResourceVersion } from '../../machinery/errors';
import type { Storage } from '../../storage/types';

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

/** 410 Expired for a continue token older than the history, with where a fresh token would continue. */
export class ContinueExpiredError extends StatusError {
  constructor(
    message: string,
    readonly currentRevision: number,
    readonly after: string,
  ) {
    super(410, 'Expired', message);
  }
}
