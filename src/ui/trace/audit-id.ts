/**
 * Which answers have an admission trace to open, and under which id: the
 * little the first screen's error notices and trace links need, kept apart
 * from the trace model (and its JSON-patch library) so the main chunk does
 * not carry that until the traces view or the console is opened.
 */

/** The `Audit-Id` of an answer, from a header list or `Headers`. */
export function auditIdOf(
  headers: readonly (readonly [string, string])[] | Headers | undefined,
): string | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers) return headers.get('audit-id') ?? undefined;
  return headers.find(([name]) => name.toLowerCase() === 'audit-id')?.[1];
}

/** Reads never reach admission, so only writes have a trace to open. */
export function isWrite(method: string): boolean {
  return ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method.toUpperCase());
}
