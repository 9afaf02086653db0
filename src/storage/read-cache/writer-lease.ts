/**
 * The store's writer lease: at most one handle on a shared store (a service
 * worker, the next version of it during an update, another context on the
 * same IndexedDB) holds it at a time, and only its holder writes objects. A
 * handle that wants to write asks for it on a broadcast channel and waits for
 * an exclusive lock; the holder, asked, stops serving reads from memory,
 * lets its writes in flight commit, and only then releases the lock. So a
 * handle that holds the lease knows that no other handle's write can land
 * while it holds it — what makes its in-memory copy exact (read-cache.ts).
 *
 * The lock and the channel are passed in (Web Locks and BroadcastChannel in
 * the browser; `inProcessLocks` and Node's BroadcastChannel in tests), so
 * this module uses no host API itself. The lock is released by the browser
 * when its holder's context ends, so a stopped worker never blocks the next.
 */

/** The part of the Web Locks API the lease uses (`navigator.locks`). */
export interface LockManagerLike {
  request(name: string, callback: () => Promise<void>): Promise<unknown>;
}

/** The part of BroadcastChannel the lease uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

export interface WriterLease {
  /** True while this handle holds the lease. */
  readonly held: boolean;
  /** Resolves once this handle holds the lease (at once when it does). */
  acquire(): Promise<void>;
  /** Called, while this handle holds the lease, whenever another handle asks for it. */
  onWanted(listener: () => void): void;
  /** Gives the lease up (the holder calls it once its writes in flight have committed). */
  release(): void;
  close(): void;
}

/** How often a waiting handle asks again: a request sent before the holder listened would otherwise be lost. */
const askAgainMs = 50;

export function createWriterLease(options: {
  name: string;
  locks: LockManagerLike;
  channel: ChannelLike;
}): WriterLease {
  const { name, locks, channel } = options;
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const wanted = new Set<() => void>();
  let held = false;
  let closed = false;
  let releaseLock: (() => void) | undefined;
  let acquiring: Promise<void> | undefined;

  channel.addEventListener('message', (event) => {
    const data = event.data as { want?: string } | null;
    if (!held || typeof data?.want !== 'string' || data.want === id) return;
    for (const listener of wanted) listener();
  });

  return {
    get held() {
      return held;
    },
    acquire() {
      if (held) return Promise.resolve();
      acquiring ??= new Promise<void>((resolve, reject) => {
        const ask = () => {
          if (!closed) channel.postMessage({ want: id });
        };
        ask();
        const timer = setInterval(ask, askAgainMs);
        locks
          .request(name, () => {
            clearInterval(timer);
            acquiring = undefined;
            held = true;
            resolve();
            return new Promise<void>((done) => {
              releaseLock = done;
            });
          })
          .catch((error: unknown) => {
            clearInterval(timer);
            acquiring = undefined;
            reject(error instanceof Error ? error : new Error(String(error)));
          });
      });
      return acquiring;
    },
    onWanted(listener) {
      wanted.add(listener);
    },
    release() {
      if (!held) return;
      held = false;
      const done = releaseLock;
      releaseLock = undefined;
      done?.();
    },
    close() {
      closed = true;
      this.release();
      channel.close();
    },
  };
}

/**
 * Exclusive locks among the handles of one process, with the Web Locks API's semantics for `request` (first come,
 * first served; held until the callback's promise settles): for the Node host and tests, where handles share a
 * process and `navigator.locks` may be missing.
 */
export function inProcessLocks(): LockManagerLike {
  const tails = new Map<string, Promise<void>>();
  return {
    request(name, callback) {
      const before = tails.get(name) ?? Promise.resolve();
      const run = before.then(callback);
      const tail = run.then(
        () => undefined,
        () => undefined,
      );
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
  };
}
