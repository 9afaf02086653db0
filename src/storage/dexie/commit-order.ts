/**
 * Delivers committed changes to the commit listeners in revision order.
 * IndexedDB runs read-write transactions over the same stores one at a time,
 * in the order they were created, so the writes of one process take their
 * revisions in the order they were issued; but the promises that report each
 * commit may settle in any order. Writes therefore take a slot when they are
 * issued, and a settled slot is delivered only once every earlier slot has
 * settled (a failed write settles its slot with nothing to deliver). Slots,
 * not revision numbers, set the order, because another connection to the same
 * database (another tab) may take revisions this process never sees.
 */

import type { ChangeRecord } from '../types';

interface Slot {
  settled: boolean;
  change?: ChangeRecord;
  delivered: () => void;
}

export class CommitOrder {
  private readonly slots: Slot[] = [];
  private head = 0;
  private idle: (() => void)[] = [];

  constructor(private readonly deliver: (change: ChangeRecord) => void) {}

  /** Takes the next slot; call it in the same synchronous step that issues the write's transaction. */
  begin(): Slot {
    const slot: Slot = { settled: false, delivered: () => {} };
    this.slots.push(slot);
    return slot;
  }

  /** Settles a slot; resolves once its change (if any) and every earlier one were delivered. */
  settle(slot: Slot, change?: ChangeRecord): Promise<void> {
    const delivered = new Promise<void>((resolve) => {
      slot.delivered = resolve;
    });
    slot.settled = true;
    slot.change = change;
    this.flush();
    return delivered;
  }

  /** Resolves once every slot taken so far has settled and been delivered. */
  drained(): Promise<void> {
    if (this.head === this.slots.length) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private flush(): void {
    while (this.head < this.slots.length) {
      const slot = this.slots[this.head] as Slot;
      if (!slot.settled) return;
      this.head++;
      if (slot.change) this.deliver(slot.change);
      slot.delivered();
      // Under a steady stream of writes the queue may never empty: drop delivered slots now and then.
      if (this.head >= 1024) {
        this.slots.splice(0, this.head);
        this.head = 0;
      }
    }
    this.slots.length = 0;
    this.head = 0;
    const idle = this.idle;
    this.idle = [];
    for (const resolve of idle) resolve();
  }
}
