/**
 * Media type parsing: `type/subtype; k=v; ...` headers into structured
 * values, and Accept lists ordered by preference (q weight, then
 * specificity, then position), as content negotiation needs them.
 */

export interface MediaType {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  /** The essence `type/subtype`, lower-case. */
  essence: string;
}

export function parseMediaType(text: string): MediaType | undefined {
  const [head, ...rest] = text.split(';');
  const essence = (head ?? '').trim().toLowerCase();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1) return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    const v = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (k === 'q') {
      const n = Number(v);
      q = Number.isFinite(n) ? n : 0;
    } else params[k] = v;
  }
  return { type: essence.slice(0, slash), subtype: essence.slice(slash + 1), params, q, essence };
}

/** Accept entries, most preferred first; entries with q=0 dropped. */
export function parseAccept(header: string | null): MediaType[] {
  if (header === null || header.trim() === '') return [];
  const entries: { m: MediaType; i: number }[] = [];
  header.split(',').forEach((part, i) => {
    const m = parseMediaType(part);
    if (m !== undefined && m.q > 0) entries.push({ m, i });
  });
  const specificity = (m: MediaType): number => (m.type === '*' ? 0 : m.subtype === '*' ? 1 : 2);
  entries.sort((a, b) => b.m.q - a.m.q || specificity(b.m) - specificity(a.m) || a.i - b.i);
  return entries.map((e) => e.m);
}
