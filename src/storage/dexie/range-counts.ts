/**
 * How many keys a collection holds, kept in memory for the first page of a
 * list. A page's `remaining` needs the count of keys after its last item,
 * and IndexedDB counts a key range by walking it: at 100k ConfigMaps a
 * first page of 500 spent ~7 ms counting the 99,500 keys after it (0.5 ms
 * at 1k). Knowing the collection's total, the same figure is the total
 * minus the count of the ~500 keys up to the page's last item.
 *
 * A total is exact at one revision, and only used by a read of that very
 * revision. It is taken by a count in a list's own transaction and moves
 * with each of this handle's commits, which the store delivers in revision
 * order: a created key in the range adds one, a deleted key takes one away.
 * A commit that does not follow a total's revision (a revision this handle
 * did not see, another handle's write) drops it. Totals are kept only while
 * this handle writes the store alone (`writeExclusively`, under the writer
 * lease), and all are forgotten when that or the whole state changes (an
 * import, a clear), since an import can bring back a revision number with
 * other contents.
 */

import type { ChangeRecord } from '../types';

/** Collections whose totals are kept at once; the least recently used go first. */
const maxRanges = 64;

interface Total {
  count: number;
  revision: number;
}

export class RangeCounts {
  private readonly totals = new Map<string, Total>();
  private enabled = false;

  /** Totals are kept only while enabled (this handle writes the store alone); turning either way forgets them. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.totals.clear();
  }

  /** Forgets every total (the whole state changed). */
  clear(): void {
    this.totals.clear();
  }

  /** The number of keys under `prefix` at `revision`, when known. */
  total(prefix: string, revision: number): number | undefined {
    const total = this.totals.get(prefix);
    if (total === undefined || total.revision !== revision) return undefined;
    // Most recently used last, so that the first is the one to drop.
    this.totals.delete(prefix);
    this.totals.set(prefix, total);
    return total.count;
  }

  /** `count` keys under `prefix` at `revision`, as a read of that revision counted them. */
  learn(prefix: string, revision: number, count: number): void {
    if (!this.enabled) return;
    const known = this.totals.get(prefix);
    // A total already at a later revision moved with commits this count did not see.
    if (known !== undefined && known.revision > revision) return;
    this.totals.delete(prefix);
    this.totals.set(prefix, { count, revision });
    if (this.totals.size > maxRanges) this.totals.delete(this.totals.keys().next().value as string);
  }

  /** One committed change, delivered in revision order. */
  apply(change: ChangeRecord): void {
    if (this.totals.size === 0) return;
    const delta = change.type === 'ADDED' ? 1 : change.type === 'DELETED' ? -1 : 0;
    for (const [prefix, total] of this.totals) {
      // A total counted after this change was committed already includes it.
      if (change.revision <= total.revision) continue;
      if (change.revision !== total.revision + 1) {
        this.totals.delete(prefix);
        continue;
      }
      total.revision = change.revision;
      if (delta !== 0 && change.key.startsWith(prefix)) total.count += delta;
    }
  }
}
