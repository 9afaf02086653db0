/**
 * The hashes controllers name their objects by: `pod-template-hash` of a
 * Deployment's ReplicaSets and `controller-revision-hash` of
 * ControllerRevisions. As upstream's `ComputeHash`, a 32-bit FNV-1a of the
 * template and the collision count, written as its decimal digits mapped
 * onto the safe alphabet (no vowels, no confusable digits). Upstream hashes
 * Go's printed form of the struct; this hashes the template's JSON with
 * sorted keys, so the same template always gets the same hash here, but
 * not the same as on a real cluster (decision 0041).
 */

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

/** JSON with object keys sorted at every depth, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  const bytes = new TextEncoder().encode(text);
  for (const b of bytes) {
    hash ^= b;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** `rand.SafeEncodeString`: each character mapped onto the safe alphabet by its code. */
export function safeEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += safeAlphabet[s.charCodeAt(i) % safeAlphabet.length];
  return out;
}

/** The hash of a template and a collision count (absent counts as none). */
export function computeHash(template: unknown, collisionCount?: number): string {
  let text = canonicalJson(template);
  if (collisionCount !== undefined) text += `#${collisionCount}`;
  return safeEncode(String(fnv32a(text)));
}
