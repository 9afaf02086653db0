/**
 * Sets of field paths, the unit of ownership: a manager owns a set. Stored
 * as a tree — at each level the sorted elements that are members, and the
 * sorted children that lead to deeper members — so that set algebra runs
 * level by level as the real server's does (including its two kinds of
 * difference: plain, which leaves the children of a removed parent, and
 * recursive, which removes them too).
 */

import { pauseDue, runNow, type Work } from '../machinery/cooperative';
import { comparePE, type Path, type PathElement } from './path';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

function search<T>(
  items: readonly T[],
  pe: PathElement,
  key: (item: T) => PathElement,
): { index: number; found: boolean } {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comparePE(key(items[mid] as T), pe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return { index: lo, found: lo < items.length && comparePE(key(items[lo] as T), pe) === 0 };
}

const self = (pe: PathElement): PathElement => pe;
const childPE = (c: Child): PathElement => c.pe;

export class FieldSet {
  private memberList: PathElement[] = [];
  private childList: Child[] = [];
  /** Whether an insertion out of order left a list to be sorted (and deduplicated) before its next read. */
  private membersUnsorted = false;
  private childrenUnsorted = false;

  /**
   * Sorted, unique. Insertions append and the list is sorted once when next read: a wide object's
   * fields arrive in its own key order, and keeping the list sorted on each insertion moved half of
   * it per field (quadratic in the number of fields).
   */
  get members(): PathElement[] {
    if (this.membersUnsorted) this.sortNow();
    return this.memberList;
  }

  /** Sorted by element, unique; may be empty sets only transiently (operations drop them). */
  get children(): Child[] {
    if (this.childrenUnsorted) this.sortNow();
    return this.childList;
  }

  /**
   * `sortWork` at once. A short list (a create's few fields per level) is sorted by plain calls: the same
   * stable sort by the same order, without a generator per step and per level.
   */
  private sortNow(): void {
    if (this.memberList.length > sortBlock || this.childList.length > sortBlock) {
      runNow(this.sortWork());
      return;
    }
    if (this.membersUnsorted) {
      this.memberList = sortedUnique(this.memberList);
      this.membersUnsorted = false;
    }
    if (this.childrenUnsorted) {
      this.childList = sortedUniqueChildren(this.childList);
      this.childrenUnsorted = false;
    }
  }

  /**
   * Sorts this level's members and children if an insertion left them unsorted, as work that may pause
   * (a wide map's 100,000 members are sorted in slices); `members` and `children` do the same at once.
   */
  *sortWork(): Work<void> {
    if (this.membersUnsorted) {
      const list = this.memberList;
      const n = list.length;
      const sorted = yield* sortedUniqueWork(list, self);
      // Read (and so sorted) or added to while this paused: left to the next read.
      if (this.memberList === list && list.length === n && this.membersUnsorted) {
        this.memberList = sorted;
        this.membersUnsorted = false;
      }
    }
    if (this.childrenUnsorted) {
      const list = this.childList;
      const n = list.length;
      const sorted = yield* sortedUniqueChildrenWork(list);
      if (this.childList === list && list.length === n && this.childrenUnsorted) {
        this.childList = sorted;
        this.childrenUnsorted = false;
      }
    }
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path; its parents are not added (the whole object, the empty path, is never owned). */
  insert(path: Path): void {
    if (path.length === 0) return;
    const last = path[path.length - 1] as PathElement;
    if (path.length === 1) {
      this.insertMember(last);
      return;
    }
    let s = this.descend(path[0] as PathElement);
    for (let i = 1; i < path.length - 1; i++) s = s.descend(path[i] as PathElement);
    s.insertMember(last);
  }

  insertMember(pe: PathElement): void {
    const list = this.memberList;
    const last = list[list.length - 1];
    const order = last === undefined ? -1 : comparePE(last, pe);
    if (order === 0) return;
    list.push(pe);
    if (order > 0) this.membersUnsorted = true;
  }

  /** The child set for `pe`, created when absent. */
  descend(pe: PathElement): FieldSet {
    const list = this.childList;
    const last = list[list.length - 1];
    const order = last === undefined ? -1 : comparePE(last.pe, pe);
    if (order === 0) return (last as Child).set;
    if (order > 0) {
      // Out of order: an existing child is found by search (which sorts first), a new one appended unsorted.
      const existing = this.child(pe);
      if (existing !== undefined) return existing;
      this.childrenUnsorted = true;
    }
    const set = new FieldSet();
    this.childList.push({ pe, set });
    return set;
  }

  /** Puts `set` under `pe` (merged with what is there already). */
  adopt(pe: PathElement, set: FieldSet): void {
    const existing = this.child(pe);
    if (existing === undefined) {
      const list = this.childList;
      const last = list[list.length - 1];
      if (last !== undefined && comparePE(last.pe, pe) > 0) this.childrenUnsorted = true;
      list.push({ pe, set });
      return;
    }
    const merged = existing.union(set);
    existing.memberList = merged.members;
    existing.childList = merged.children;
    existing.membersUnsorted = false;
    existing.childrenUnsorted = false;
  }

  hasMember(pe: PathElement): boolean {
    return search(this.members, pe, self).found;
  }

  child(pe: PathElement): FieldSet | undefined {
    const { index, found } = search(this.children, pe, childPE);
    return found ? (this.children[index] as Child).set : undefined;
  }

  has(path: Path): boolean {
    if (path.length === 0) return false;
    const last = path[path.length - 1] as PathElement;
    if (path.length === 1) return this.hasMember(last);
    let s = this.child(path[0] as PathElement);
    for (let i = 1; i < path.length - 1 && s !== undefined; i++) s = s.child(path[i] as PathElement);
    return s !== undefined && s.hasMember(last);
  }

  /** The paths under `pe`, without the prefix (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.child(pe) ?? new FieldSet();
  }

  empty(): boolean {
    if (this.members.length > 0) return false;
    return this.children.every((c) => c.set.empty());
  }

  size(): number {
    let n = this.members.length;
    for (const c of this.children) n += c.set.size();
    return n;
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    const push = (pe: PathElement): void => void out.members.push(pe);
    mergeSorted(this.members, other.members, self, push, push, push);
    let i = 0;
    let j = 0;
    while (i < this.children.length && j < other.children.length) {
      const a = this.children[i] as Child;
      const b = other.children[j] as Child;
      const c = comparePE(a.pe, b.pe);
      if (c < 0) {
        out.children.push(a);
        i++;
      } else if (c > 0) {
        out.children.push(b);
        j++;
      } else {
        out.children.push({ pe: a.pe, set: a.set.union(b.set) });
        i++;
        j++;
      }
    }
    for (; i < this.children.length; i++) out.children.push(this.children[i] as Child);
    for (; j < other.children.length; j++) out.children.push(other.children[j] as Child);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (other.hasMember(m)) out.members.push(m);
    for (const c of this.children) {
      const o = other.child(c.pe);
      if (o === undefined) continue;
      const r = c.set.intersection(o);
      if (!r.empty()) out.children.push({ pe: c.pe, set: r });
    }
    return out;
  }

  /** Members of `this` not in `other`; a member of `other` does not remove children of `this` (parent − child = parent). */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (!other.hasMember(m)) out.members.push(m);
    for (const c of this.children) {
      const o = other.child(c.pe);
      if (o === undefined) {
        out.children.push(c);
        continue;
      }
      const d = c.set.difference(o);
      if (!d.empty()) out.children.push({ pe: c.pe, set: d });
    }
    return out;
  }

  /** Like `difference`, but a member of `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const m of this.members) if (!other.hasMember(m)) out.members.push(m);
    for (const c of this.children) {
      if (other.hasMember(c.pe)) continue;
      const o = other.child(c.pe);
      if (o === undefined) {
        out.children.push(c);
        continue;
      }
      const d = c.set.recursiveDifference(o);
      if (!d.empty()) out.children.push({ pe: c.pe, set: d });
    }
    return out;
  }

  equals(other: FieldSet): boolean {
    if (this.members.length !== other.members.length || this.children.length !== other.children.length)
      return false;
    for (let i = 0; i < this.members.length; i++)
      if (comparePE(this.members[i] as PathElement, other.members[i] as PathElement) !== 0) return false;
    for (let i = 0; i < this.children.length; i++) {
      const a = this.children[i] as Child;
      const b = other.children[i] as Child;
      if (comparePE(a.pe, b.pe) !== 0 || !a.set.equals(b.set)) return false;
    }
    return true;
  }

  /** Every member path, depth first: a level's members, then its children in order. */
  iterate(fn: (path: Path) => void, prefix: PathElement[] = []): void {
    for (const m of this.members) fn([...prefix, m]);
    for (const c of this.children) c.set.iterate(fn, [...prefix, c.pe]);
  }

  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }
}

const surrogate = /[\uD800-\uDFFF]/;

/** A field name whose code point order is the native `<` of the names (no surrogates). */
function plainField(pe: PathElement): boolean {
  return pe.kind === 'field' && !surrogate.test(pe.name);
}

/** Items sorted natively per block before the blocks are merged: one block's sort is one step that cannot pause. */
const sortBlock = 1024;

/**
 * `items` sorted by element, stably (so equal elements keep their insertion order, the first one first), as
 * work that may pause: a wide map's field set has 100,000 members, and one sort of them held the event
 * loop for ~150 ms. Blocks of `sortBlock` items are sorted natively (TimSort: a block that arrived in
 * order costs one comparison per item), then merged pairwise, bottom up, pausing between items. A stable
 * sort by a total order has one result, so this is the order a single `sort` gives. When every element is
 * a field name without surrogates (a wide map's keys), code point order is the native `<` of the names;
 * otherwise `comparePE` decides.
 */
function* sortedByElementWork<T>(items: readonly T[], key: (item: T) => PathElement): Work<T[]> {
  let plain = true;
  for (const item of items) {
    if (!plainField(key(item))) {
      plain = false;
      break;
    }
    if (pauseDue()) yield;
  }
  const compare = elementOrder(plain, key);
  let runs: T[][] = [];
  for (let i = 0; i < items.length; i += sortBlock) {
    runs.push(items.slice(i, i + sortBlock).sort(compare));
    if (pauseDue()) yield;
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const a = runs[r] as T[];
      const b = runs[r + 1] as T[];
      const out: T[] = new Array<T>(a.length + b.length);
      let i = 0;
      let j = 0;
      let k = 0;
      // Runs already in order (the common case) are joined without comparing each item.
      if (a.length > 0 && b.length > 0 && compare(a[a.length - 1] as T, b[0] as T) <= 0) {
        for (const x of a) out[k++] = x;
        for (const x of b) out[k++] = x;
      } else {
        while (i < a.length && j < b.length) {
          // Ties take the left run's item: the merge is stable.
          out[k++] = compare(b[j] as T, a[i] as T) < 0 ? (b[j++] as T) : (a[i++] as T);
          if (pauseDue()) yield;
        }
        while (i < a.length) out[k++] = a[i++] as T;
        while (j < b.length) out[k++] = b[j++] as T;
      }
      merged.push(out);
      if (pauseDue()) yield;
    }
    if (runs.length % 2 === 1) merged.push(runs[runs.length - 1] as T[]);
    runs = merged;
  }
  return runs[0] ?? [];
}

/** The order `sortedByElementWork` sorts by: native `<` of plain field names, else `comparePE`. */
function elementOrder<T>(plain: boolean, key: (item: T) => PathElement): (a: T, b: T) => number {
  const name = (item: T): string => (key(item) as { name: string }).name;
  return plain
    ? (a: T, b: T): number => {
        const x = name(a);
        const y = name(b);
        return x < y ? -1 : x > y ? 1 : 0;
      }
    : (a: T, b: T): number => comparePE(key(a), key(b));
}

/** `sortedByElementWork` of at most `sortBlock` items, at once: one native stable sort, as its one block. */
function sortedByElement<T>(items: readonly T[], key: (item: T) => PathElement): T[] {
  const plain = items.every((item) => plainField(key(item)));
  return items.slice().sort(elementOrder(plain, key));
}

/** `sortedUniqueWork` of a short list of members, at once. */
function sortedUnique(items: readonly PathElement[]): PathElement[] {
  const out: PathElement[] = [];
  for (const item of sortedByElement(items, self)) {
    const last = out[out.length - 1];
    if (last === undefined || comparePE(last, item) !== 0) out.push(item);
  }
  return out;
}

/** `sortedUniqueChildrenWork` of a short list, at once. */
function sortedUniqueChildren(items: readonly Child[]): Child[] {
  const out: Child[] = [];
  for (const item of sortedByElement(items, childPE)) {
    const last = out[out.length - 1];
    if (last !== undefined && comparePE(last.pe, item.pe) === 0) last.set = last.set.union(item.set);
    else out.push({ pe: item.pe, set: item.set });
  }
  return out;
}

function* sortedUniqueWork<T>(items: readonly T[], key: (item: T) => PathElement): Work<T[]> {
  const sorted = yield* sortedByElementWork(items, key);
  const out: T[] = [];
  for (const item of sorted) {
    const last = out[out.length - 1];
    if (last === undefined || comparePE(key(last), key(item)) !== 0) out.push(item);
    if (pauseDue()) yield;
  }
  return out;
}

/** Children sorted by element; children inserted twice for one element (out of order) are merged. */
function* sortedUniqueChildrenWork(items: readonly Child[]): Work<Child[]> {
  const sorted = yield* sortedByElementWork(items, childPE);
  const out: Child[] = [];
  for (const item of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && comparePE(last.pe, item.pe) === 0) last.set = last.set.union(item.set);
    else out.push({ pe: item.pe, set: item.set });
    if (pauseDue()) yield;
  }
  return out;
}

/** Test hook: the sort the sets use, run at once. */
export function sortedByElementForTest<T>(items: readonly T[], key: (item: T) => PathElement): T[] {
  return runNow(sortedByElementWork(items, key));
}

function mergeSorted<T>(
  a: readonly T[],
  b: readonly T[],
  key: (x: T) => PathElement,
  both: (x: T) => void,
  onlyA: (x: T) => void,
  onlyB: (x: T) => void,
): void {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const c = comparePE(key(a[i] as T), key(b[j] as T));
    if (c < 0) onlyA(a[i++] as T);
    else if (c > 0) onlyB(b[j++] as T);
    else {
      both(a[i] as T);
      i++;
      j++;
    }
  }
  while (i < a.length) onlyA(a[i++] as T);
  while (j < b.length) onlyB(b[j++] as T);
}
