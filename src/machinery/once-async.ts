/**
 * An asynchronous computation done once and shared by every caller, unless
 * it fails: a failure reaches the callers waiting on it, and the next call
 * starts again (a library that could not be fetched offline, a CA whose
 * creation failed), instead of caching the error for the life of the server.
 */

export function onceAsync<T>(compute: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (pending === undefined) {
      const started = compute();
      pending = started;
      started.catch(() => {
        if (pending === started) pending = undefined;
      });
    }
    return pending;
  };
}
