/**
 * Toleration arithmetic shared by the scheduling plugins, with the real
 * server's semantics: when one toleration tolerates everything another does
 * (`isSuperset`), merging keeps only the wider one; a whitelist admits a
 * toleration that some entry is a superset of; tolerations are identified by
 * key, effect, operator and value when one is added or updated in place.
 * Absent strings compare as empty, as Go's zero values do.
 */

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number | null;
}

const str = (s: string | undefined): string => s ?? '';
const seconds = (t: Toleration): number | undefined =>
  typeof t.tolerationSeconds === 'number' ? t.tolerationSeconds : undefined;

/** Semantic equality (absent and empty strings alike, tolerationSeconds by value). */
export function tolerationsEqual(a: Toleration, b: Toleration): boolean {
  return (
    str(a.key) === str(b.key) &&
    str(a.operator) === str(b.operator) &&
    str(a.value) === str(b.value) &&
    str(a.effect) === str(b.effect) &&
    seconds(a) === seconds(b)
  );
}

/** Whether `ss` tolerates every taint `t` tolerates (for at least as long). */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (tolerationsEqual(ss, t)) return true;
  // An empty key with Exists matches every key.
  if (str(t.key) !== str(ss.key) && (str(ss.key) !== '' || ss.operator !== 'Exists')) return false;
  // An empty effect matches every effect.
  if (str(t.effect) !== str(ss.effect) && str(ss.effect) !== '') return false;
  if (ss.effect === 'NoExecute') {
    const limit = seconds(ss);
    if (limit !== undefined) {
      const own = seconds(t);
      if (own === undefined || own > limit) return false;
    }
  }
  switch (str(ss.operator)) {
    case 'Equal':
    case '':
      // The real check wants the spelled-out operator on t: an empty one is not subsumed.
      return t.operator === 'Equal' && str(t.value) === str(ss.value);
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** The union of both lists without tolerations another one already covers (first of equals kept). */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  next: for (let i = 0; i < all.length; i++) {
    const t = all[i] as Toleration;
    for (const kept of merged) if (isSuperset(kept, t)) continue next;
    for (const later of all.slice(i + 1)) {
      if (!tolerationsEqual(t, later) && isSuperset(later, t)) continue next;
    }
    merged.push(t);
  }
  return merged;
}

/** Whether every toleration is covered by some whitelist entry (an empty whitelist admits all). */
export function verifyAgainstWhitelist(
  tolerations: readonly Toleration[],
  whitelist: readonly Toleration[],
): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}

/** Tolerations are unique by key, effect, operator and value. */
function sameIdentity(a: Toleration, b: Toleration): boolean {
  return (
    str(a.key) === str(b.key) &&
    str(a.effect) === str(b.effect) &&
    str(a.operator) === str(b.operator) &&
    str(a.value) === str(b.value)
  );
}

/** Adds `toleration`, replacing one with the same identity; undefined when it was already there as is. */
export function addOrUpdateToleration(
  tolerations: readonly Toleration[],
  toleration: Toleration,
): Toleration[] | undefined {
  const out: Toleration[] = [];
  let updated = false;
  for (const existing of tolerations) {
    if (sameIdentity(toleration, existing)) {
      if (tolerationsEqual(toleration, existing)) return undefined;
      out.push(toleration);
      updated = true;
      continue;
    }
    out.push(existing);
  }
  if (!updated) out.push(toleration);
  return out;
}
