/**
 * One pool of numbered slots (the addresses of a service CIDR, the ports of
 * the node-port range), as the real server's bitmap allocators keep them:
 * a static lower band that automatic allocation uses last (the
 * `ServiceIPStaticSubrange`/`ServiceNodePortStaticSubrange` behaviour), a
 * random pick in the upper band first. Each taken slot remembers its owner
 * (the Service's uid) so a late release for an owner that no longer holds
 * it frees nothing, and how many unfinished writes of that owner claim it:
 * concurrent updates of one Service may each ask for the same slot, and a
 * failed one must give back only its own claim, never the slot another
 * (stored) update holds.
 */

export class RangeAllocator {
  private readonly owners = new Map<number, string>();
  private readonly claims = new Map<number, number>();

  /**
   * @param size slots 0..size-1
   * @param staticBand how many low slots are kept for explicit requests while the upper band has room
   */
  constructor(
    readonly size: number,
    private readonly staticBand: number,
  ) {}

  get used(): number {
    return this.owners.size;
  }

  /** Who holds a slot, if anyone. */
  holder(offset: number): string | undefined {
    return this.owners.get(offset);
  }

  /**
   * Takes a named slot (one claim more): 'new' when this call took it,
   * 'held' when the owner already held it, 'taken' when another owner does.
   */
  allocate(offset: number, owner: string): 'new' | 'held' | 'taken' {
    const holder = this.owners.get(offset);
    if (holder !== undefined && holder !== owner) return 'taken';
    this.claims.set(offset, (this.claims.get(offset) ?? 0) + 1);
    if (holder !== undefined) return 'held';
    this.owners.set(offset, owner);
    return 'new';
  }

  /**
   * Marks a slot as a stored object's (idempotent: no claim is added when the owner holds it already). The
   * store is the truth: a slot another owner holds here (a stale view of another replica's writes) moves over.
   */
  hold(offset: number, owner: string): void {
    if (this.owners.get(offset) === owner) return;
    this.owners.set(offset, owner);
    this.claims.set(offset, 1);
  }

  /** Undoes one `allocate` of a write that was not stored: the slot is freed when no other claim remains. */
  unclaim(offset: number, owner: string): void {
    if (this.owners.get(offset) !== owner) return;
    const left = (this.claims.get(offset) ?? 1) - 1;
    if (left > 0) this.claims.set(offset, left);
    else this.release(offset);
  }

  /** Takes a free slot (upper band first, at random); undefined when the range is full. */
  allocateNext(owner: string): number | undefined {
    const pick = (from: number, to: number): number | undefined => {
      const span = to - from;
      if (span <= 0) return undefined;
      const start = Math.floor(Math.random() * span);
      for (let i = 0; i < span; i++) {
        const offset = from + ((start + i) % span);
        if (!this.owners.has(offset)) return offset;
      }
      return undefined;
    };
    const offset = pick(this.staticBand, this.size) ?? pick(0, Math.min(this.staticBand, this.size));
    if (offset !== undefined) {
      this.owners.set(offset, owner);
      this.claims.set(offset, 1);
    }
    return offset;
  }

  /** Frees a slot whatever its claims (the stored object gave it up); with an owner, only when that owner holds it. */
  release(offset: number, owner?: string): void {
    if (owner === undefined || this.owners.get(offset) === owner) {
      this.owners.delete(offset);
      this.claims.delete(offset);
    }
  }

  clear(): void {
    this.owners.clear();
    this.claims.clear();
  }
}

/** The real allocators' static band: a sixteenth (IPs) or a thirty-second (ports) of the range, within bounds. */
export function staticBandSize(rangeSize: number, step: number, max: number): number {
  const min = 16;
  if (rangeSize < min) return 0;
  return Math.min(Math.max(Math.floor(rangeSize / step), min), max);
}
