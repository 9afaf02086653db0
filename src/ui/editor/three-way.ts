/**
 * A three-way merge of objects for the editor's "re-apply my change": the
 * base is what the editor loaded, mine is the editor's text, theirs is what
 * is stored now. Where only one side changed a field, that side wins; where
 * both changed it differently, mine wins and the path is reported, so the
 * learner sees what they are about to overwrite. Merging objects (not lines)
 * means the server's new resourceVersion — which mine did not touch — is
 * taken from theirs, which is the point: the retry is no longer stale.
 */

import type { KubeObject } from '../../api/meta';

export interface Merged {
  object: KubeObject;
  /** Field paths (`.data.greeting`) both sides changed to different values; mine was kept. */
  conflicts: string[];
}

export function threeWayMerge(base: KubeObject | undefined, mine: KubeObject, theirs: KubeObject): Merged {
  const conflicts: string[] = [];
  if (base === undefined) {
    // Nothing loaded to compare with: my text as written, on the stored version.
    const rv = theirs.metadata?.resourceVersion;
    const metadata = { ...mine.metadata, ...(rv === undefined ? {} : { resourceVersion: rv }) };
    return { object: { ...mine, metadata }, conflicts };
  }
  const object = mergeValue(base, mine, theirs, '', conflicts) as KubeObject;
  return { object, conflicts };
}

function mergeValue(
  base: unknown,
  mine: unknown,
  theirs: unknown,
  path: string,
  conflicts: string[],
): unknown {
  if (same(mine, base)) return theirs;
  if (same(theirs, base) || same(mine, theirs)) return mine;
  if (isRecord(base) && isRecord(mine) && isRecord(theirs)) {
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(theirs), ...Object.keys(mine)])) {
      const value = mergeValue(base[key], mine[key], theirs[key], `${path}.${key}`, conflicts);
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  conflicts.push(path === '' ? '.' : path);
  return mine;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a).filter((k) => a[k] !== undefined);
    const other = Object.keys(b).filter((k) => b[k] !== undefined);
    return keys.length === other.length && keys.every((k) => same(a[k], b[k]));
  }
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
