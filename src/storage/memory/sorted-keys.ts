/**
 * The memory store's sorted set of current keys, kept in blocks of at most
 * a few hundred keys. One flat sorted array made an insert or delete cost a
 * move of every later key, and V8's `splice` on an array grown by splices
 * took ~0.3 ms per insert at 100k keys (decision 0039): with blocks an
 * insert moves at most one block, while positions (a collection is the
 * slice between two positions) stay available as ranks.
 */

import { lowerBound } from '../keys';

const blockSize = 512;

export class SortedKeys {
  private blocks: string[][] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Replaces the content with `keys`, which must be sorted and distinct. */
  reset(keys: readonly string[] = []): void {
    this.blocks = [];
    for (let i = 0; i < keys.length; i += blockSize) this.blocks.push(keys.slice(i, i + blockSize));
    this.count = keys.length;
  }

  /** Adds a key that is not present. */
  insert(key: string): void {
    if (this.blocks.length === 0) {
      this.blocks.push([key]);
      this.count = 1;
      return;
    }
    const b = Math.min(this.blockFor(key), this.blocks.length - 1);
    const block = this.blocks[b] as string[];
    block.splice(lowerBound(block, key, false), 0, key);
    this.count++;
    if (block.length > blockSize) this.blocks.splice(b + 1, 0, block.splice(block.length >>> 1));
  }

  /** Removes a key that is present. */
  remove(key: string): void {
    const b = this.blockFor(key);
    const block = this.blocks[b];
    if (block === undefined) return;
    const i = lowerBound(block, key, false);
    if (block[i] !== key) return;
    block.splice(i, 1);
    this.count--;
    if (block.length === 0) this.blocks.splice(b, 1);
  }

  /** The number of keys before `key` (`open`: before or equal), as `lowerBound` on a flat sorted array. */
  rank(key: string, open = false): number {
    const b = this.blockFor(key, open);
    let before = 0;
    for (let i = 0; i < b && i < this.blocks.length; i++) before += (this.blocks[i] as string[]).length;
    const block = this.blocks[b];
    return block === undefined ? before : before + lowerBound(block, key, open);
  }

  /** The keys at positions `start` (inclusive) to `end` (exclusive), in order. */
  *range(start: number, end: number): Generator<string> {
    let b = 0;
    let offset = 0;
    while (b < this.blocks.length && offset + (this.blocks[b] as string[]).length <= start)
      offset += (this.blocks[b++] as string[]).length;
    for (let at = start; at < end && b < this.blocks.length; b++) {
      const block = this.blocks[b] as string[];
      for (let i = at - offset; i < block.length && at < end; i++, at++) yield block[i] as string;
      offset += block.length;
    }
  }

  /** Every key, in order. */
  all(): string[] {
    return this.blocks.flat();
  }

  /** The first block whose last key is at or after `key` (after it, when `open`). */
  private blockFor(key: string, open = false): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid] as string[];
      const last = block[block.length - 1] as string;
      if (last < key || (open && last === key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
