/**
 * A promise a test starts now and awaits only after other awaits (the request in flight while the test
 * does something else). Until the test's own await attaches its handler, a rejection would be unhandled,
 * which fails the whole run rather than the test. `awaitedLater` marks it handled at once and hands back
 * the same promise: the rejection still throws where the test awaits it.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
