/**
 * The server's watch caches, one window per stored resource, fed by the
 * store's commits: what a watch from a past resourceVersion is served from,
 * as the real server serves it from its cacher rather than from etcd. Every
 * cache starts at the revision the server reached once its start-up objects
 * were written (built-in and existing custom resources alike; the server
 * calls `start` then); a custom resource whose CRD becomes Established
 * later gets a cache starting at that commit. A resource's window is only
 * allocated when its first change arrives, which is the same thing as a
 * window that was there, empty, from the start.
 */

import { asCrd, isConditionTrue } from '../../machinery/crd';
import type { KubeObject } from '../../api/meta';
import type { ChangeRecord, Storage } from '../../storage/types';
import { defaultWindowSizing, EventWindow, type WindowSizing } from './event-window';
import { resourcePrefixOf } from '../keys';

/** Where a watch from `revision` stands: the changes to replay, or the oldest start the cache still serves. */
export type WindowRead = { changes: ChangeRecord[] } | { tooOld: number };

export class WatchCaches {
  private windows = new Map<string, EventWindow>();
  /** Start revisions of custom resources whose CRD was Established after the server started. */
  private laterStarts = new Map<string, number>();
  private startRevision: number | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Commits seen while a (re)start reads its revision, one list per start in progress. */
  private restarting = new Set<ChangeRecord[]>();

  constructor(
    private readonly storage: Storage,
    /** `/<group>/customresourcedefinitions/` for the server's profile. */
    private readonly crdPrefix: string,
    private readonly now: () => Date,
    private readonly sizing: WindowSizing = defaultWindowSizing,
  ) {}

  /** Starts every cache at the store's current revision (server start-up, or after the state was replaced). */
  async start(): Promise<void> {
    this.unsubscribe ??= this.storage.onCommit((change) => {
      for (const arrived of this.restarting) arrived.push(change);
      this.record(change);
    });
    // Commits landing while the revision is read may be newer than it: keep them for the new windows.
    const arrived: ChangeRecord[] = [];
    this.restarting.add(arrived);
    let revision: number;
    try {
      revision = await this.storage.currentRevision();
    } finally {
      this.restarting.delete(arrived);
    }
    this.windows.clear();
    this.laterStarts.clear();
    this.startRevision = revision;
    for (const change of arrived) this.record(change);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.startRevision = undefined;
    this.windows.clear();
    this.laterStarts.clear();
  }

  get started(): boolean {
    return this.startRevision !== undefined;
  }

  /** The revision every cache (but those of CRDs Established since) started at; 0 before the start. */
  get startedAt(): number {
    return this.startRevision ?? 0;
  }

  /** The changes under `prefix` after `revision` the cache of `prefix`'s resource holds, or how old is too old. */
  read(prefix: string, revision: number): WindowRead {
    const window = this.windowFor(resourcePrefixOf(prefix));
    const held = window.since(revision);
    if (held === undefined) return { tooOld: window.oldestStart() };
    return { changes: held.filter((c) => c.key.startsWith(prefix)) };
  }

  /** Holding sizes, for tests and the memory figures: windows allocated and events held. */
  stats(): { windows: number; events: number } {
    let events = 0;
    for (const w of this.windows.values()) events += w.size;
    return { windows: this.windows.size, events };
  }

  private windowFor(resource: string): EventWindow {
    let window = this.windows.get(resource);
    if (window === undefined) {
      window = new EventWindow(this.laterStarts.get(resource) ?? this.startRevision ?? 0, this.sizing);
      this.windows.set(resource, window);
    }
    return window;
  }

  private record(change: ChangeRecord): void {
    if (this.startRevision === undefined || change.revision <= this.startRevision) return;
    const resource = resourcePrefixOf(change.key);
    this.windowFor(resource).add(change, this.now().getTime());
    if (resource === this.crdPrefix) this.crdChanged(change);
  }

  /** A CRD that becomes Established starts its resource's cache; one that goes away takes the cache with it. */
  private crdChanged(change: ChangeRecord): void {
    const after = change.type === 'DELETED' ? undefined : servedPrefix(change.object);
    const before = change.previous !== undefined ? servedPrefix(change.previous) : undefined;
    if (before !== undefined && before !== after) this.windows.delete(before);
    if (after !== undefined && after !== before) {
      this.windows.delete(after);
      this.laterStarts.set(after, change.revision);
    }
  }
}

/** The storage prefix of the resource an Established CRD serves. */
function servedPrefix(object: KubeObject): string | undefined {
  const crd = asCrd(object);
  if (!isConditionTrue(crd, 'Established')) return undefined;
  const group = crd.spec?.group ?? '';
  const plural = crd.status?.acceptedNames?.plural ?? '';
  return group === '' || plural === '' ? undefined : `/${group}/${plural}/`;
}
