/**
 * A keyed store of things asked early and taken once: each value waits under
 * its key, beside the identity version it was asked as, for the one taker
 * that names the same key as the same version. Taking clears the slot; a
 * taker of another version (or key) finds nothing and leaves the slot for
 * its rightful taker; a slot nobody takes is dropped after its time to live.
 * The early answers (early-answers.ts) and the first screen's prepared reads
 * (first-screen-data.ts) both keep theirs here.
 */

interface Slot<V> {
  value: V;
  version: number;
  timer: ReturnType<typeof setTimeout>;
}

export class TakeOnce<V> {
  private readonly slots = new Map<string, Slot<V>>();

  constructor(private readonly ttlMs: number) {}

  /** Keeps `value` under `key` for a taker of identity version `version`, replacing what the key held. */
  put(key: string, value: V, version: number): void {
    this.drop(key);
    const timer = setTimeout(() => {
      if (this.slots.get(key)?.value === value) this.slots.delete(key);
    }, this.ttlMs);
    this.slots.set(key, { value, version, timer });
  }

  /** The value of `key` if it was asked as `version`, left in place (a look that does not take). */
  peek(key: string, version: number): V | undefined {
    const slot = this.slots.get(key);
    return slot?.version === version ? slot.value : undefined;
  }

  /** The value of `key`, once, if it was asked as `version`; a mismatch leaves it for its rightful taker. */
  take(key: string, version: number): V | undefined {
    const value = this.peek(key, version);
    if (value !== undefined) this.drop(key);
    return value;
  }

  /** Drops every slot (a new set of early reads replaces the last). */
  clear(): void {
    for (const key of [...this.slots.keys()]) this.drop(key);
  }

  /** How many values wait to be taken. */
  size(): number {
    return this.slots.size;
  }

  private drop(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    clearTimeout(slot.timer);
    this.slots.delete(key);
  }
}
