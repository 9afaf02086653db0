/**
 * The etcd backend of the storage interface, for Node hosts that share
 * state between processes and keep it across restarts. etcd's revision is
 * the resourceVersion: an object's revision is its row's mod revision, less
 * a base that is 0 on a store that was never cleared or imported (so the
 * numbers are etcd's own, as with the real server); `clear` and `importState`
 * cannot rewind etcd, so they record a base that restarts the sequence at 0
 * or at the imported revision. Writes are single transactions comparing the
 * row's version or mod revision (optimistic concurrency, no lock); reads at
 * a revision are etcd range reads at that revision; the change history is
 * etcd's own, read with a watch from a revision; compaction is etcd's.
 * Settings are rows beside the objects: in etcd a changed setting takes a
 * revision, so the revision sequence can have gaps where one was written.
 */

import type { KubeObject } from '../../../api/meta';
import { assertRevision, PageBuilder, prefixRange } from '../../../storage/keys';
import { buildExport, exportRowCount, parseExport } from '../../../storage/export-format';
import {
  StorageError,
  type ChangeRecord,
  type CommitListener,
  type ImportOptions,
  type ListOptions,
  type ListResult,
  type Storage,
  type StoredObject,
} from '../../../storage/types';
import { decodeObject, decodeValue, encodeObject, encodeValue, stamp } from './codec';
import { CommitFeed } from './commit-feed';
import { findCompactedRevision } from './compaction';
import { isCompactedError, storageErrorOf } from './errors';
import { KeyLayout } from './layout';
import type { EtcdKvClient } from './kv-client';
import type { KeyValue, WatchEvent } from './kv-wire';
import { createKvClient, defaultEtcdPrefix, type EtcdOptions } from './options';
import { readHistory } from './history';
import { planImport } from './import-plan';

const exportName = 'orch-sandbox-etcd';
/** Puts per transaction when importing (etcd's default --max-txn-ops is 128). */
const importBatch = 100;

/** What the store reads of a row (the revisions are numbers: see kv-wire.ts). */
type Row = Pick<KeyValue, 'value' | 'mod_revision'>;

export async function createEtcdStorage(options: EtcdOptions): Promise<EtcdStorage> {
  const kv = createKvClient(options);
  const store = new EtcdStorage(kv, new KeyLayout(options.prefix ?? defaultEtcdPrefix));
  try {
    await store.open();
  } catch (error) {
    kv.close();
    throw error;
  }
  return store;
}

export class EtcdStorage implements Storage {
  /** Store revision = etcd revision − base. */
  private base = 0;
  /** The oldest readable etcd revision, as last learnt (1: never compacted). */
  private etcdCompacted = 1;
  private readonly listeners = new Set<CommitListener>();
  private readonly feed: CommitFeed;
  /** While an import writes, and up to its last revision, the feed tells nobody. */
  private importing = false;
  /** Reads that commit listeners started: a write of this process waits for them, so they read the state of the change they heard. */
  private delivering = false;
  private readonly listenerReads = new Set<Promise<unknown>>();
  private importGate: Promise<void> | undefined;
  private suppressThrough = 0;

  constructor(
    /** Every call and watch (kv-client.ts). */
    private readonly kv: EtcdKvClient,
    private readonly layout: KeyLayout,
  ) {
    this.feed = new CommitFeed(kv, layout.all, (events, revision) => this.onEvents(events, revision));
  }

  async open(): Promise<void> {
    const response = await this.kv.range({ key: Buffer.from(this.layout.base) });
    const revision = response.header.revision;
    this.setBase(response.kvs[0]);
    this.etcdCompacted = await findCompactedRevision(this.kv, this.layout.base, 1, revision);
    await this.feed.start(revision);
  }

  async currentRevision(): Promise<number> {
    return this.toStore(await this.etcdRevision());
  }

  async compactedRevision(): Promise<number> {
    return this.etcdCompacted <= 1 ? 0 : Math.max(0, this.etcdCompacted - this.base);
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const response = await this.call(() => this.kv.range({ key: Buffer.from(this.layout.object(key)) }));
    const kv = response.kvs[0];
    return kv && this.stored(key, kv);
  }

  async getAt(key: string, revision: number): Promise<StoredObject | undefined> {
    assertRevision(revision);
    await this.checkReadable(revision);
    const response = await this.read(revision, () =>
      this.kv.range({ key: Buffer.from(this.layout.object(key)), revision: this.toEtcd(revision) }),
    );
    const kv = response.kvs[0];
    return kv && this.stored(key, kv);
  }

  async list(options: ListOptions): Promise<ListResult> {
    assertRevision(options.revision);
    // Every page of a list is read at one etcd revision: the one asked for, or the current one.
    const etcdRevision =
      options.revision === undefined ? await this.etcdRevision() : this.toEtcd(options.revision);
    if (options.revision !== undefined) await this.checkReadable(options.revision);
    const revision = this.toStore(etcdRevision);
    const range = prefixRange(options.prefix, options.after);
    const page = new PageBuilder(options);
    if (!range) return page.result(revision);
    const end = this.layout.end(range.upper);
    let start = this.layout.object(range.lower) + (range.lowerOpen ? '\0' : '');
    const batch = Number.isFinite(page.firstBatch) ? Math.max(page.firstBatch, 1) : 0;
    for (;;) {
      const response = await this.read(revision, () =>
        this.kv.range({
          key: Buffer.from(start),
          range_end: Buffer.from(end),
          revision: etcdRevision,
          limit: batch,
        }),
      );
      const rows = response.kvs.map((kv) => this.stored(this.layout.storeKey(kv.key.toString()) ?? '', kv));
      if (!page.feed(rows)) break;
      if (!response.more || rows.length === 0) {
        page.finish();
        break;
      }
      start = (response.kvs.at(-1) as KeyValue).key.toString() + '\0';
    }
    const countAfter = page.countAfter;
    if (countAfter !== undefined) {
      const counted = await this.read(revision, () =>
        this.kv.range({
          key: Buffer.from(this.layout.object(countAfter) + '\0'),
          range_end: Buffer.from(end),
          revision: etcdRevision,
          count_only: true,
        }),
      );
      page.setLiveCountAfter(counted.count);
    }
    return page.result(revision);
  }

  async count(prefix: string): Promise<number> {
    const range = prefixRange(prefix);
    if (!range) return 0;
    const response = await this.call(() =>
      this.kv.range({
        key: Buffer.from(this.layout.object(range.lower)),
        range_end: Buffer.from(this.layout.end(range.upper)),
        count_only: true,
      }),
    );
    return response.count;
  }

  async create(key: string, object: KubeObject): Promise<StoredObject> {
    await this.listenerReadsDone();
    const value = encodeObject(object);
    const etcdKey = Buffer.from(this.layout.object(key));
    const response = await this.call(() =>
      this.kv.txn({
        compare: [{ key: etcdKey, target: 'Version', result: 'Equal', version: 0 }],
        success: [{ request_put: { key: etcdKey, value: Buffer.from(value) } }],
        failure: [{ request_range: { key: etcdKey } }],
      }),
    );
    if (!response.succeeded) {
      const current = response.responses[0]?.response_range?.kvs[0];
      throw new StorageError('KeyExists', `${key} already exists`, current && this.stored(key, current));
    }
    const revision = response.header.revision;
    await this.feed.waitFor(revision);
    return { key, revision: this.toStore(revision), object: decodeObject(value, this.toStore(revision)) };
  }

  async update(key: string, object: KubeObject, expectedRevision: number): Promise<StoredObject> {
    await this.listenerReadsDone();
    const value = encodeObject(object);
    const etcdKey = Buffer.from(this.layout.object(key));
    const response = await this.call(() =>
      this.kv.txn({
        compare: [
          { key: etcdKey, target: 'Mod', result: 'Equal', mod_revision: this.toEtcd(expectedRevision) },
        ],
        success: [{ request_put: { key: etcdKey, value: Buffer.from(value) } }],
        failure: [{ request_range: { key: etcdKey } }],
      }),
    );
    if (!response.succeeded)
      throw this.writeFailure(key, response.responses[0]?.response_range?.kvs[0], expectedRevision);
    const revision = response.header.revision;
    await this.feed.waitFor(revision);
    return { key, revision: this.toStore(revision), object: decodeObject(value, this.toStore(revision)) };
  }

  async delete(key: string, expectedRevision?: number): Promise<StoredObject> {
    await this.listenerReadsDone();
    const etcdKey = Buffer.from(this.layout.object(key));
    const compare =
      expectedRevision === undefined
        ? { key: etcdKey, target: 'Version' as const, result: 'Greater' as const, version: 0 }
        : {
            key: etcdKey,
            target: 'Mod' as const,
            result: 'Equal' as const,
            mod_revision: this.toEtcd(expectedRevision),
          };
    const response = await this.call(() =>
      this.kv.txn({
        compare: [compare],
        success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }],
        failure: [{ request_range: { key: etcdKey } }],
      }),
    );
    if (!response.succeeded)
      throw this.writeFailure(key, response.responses[0]?.response_range?.kvs[0], expectedRevision);
    const previous = response.responses[0]?.response_delete_range?.prev_kvs[0];
    // The compare held, so the row existed and prev_kv is it; guard anyway rather than invent an object.
    if (!previous) throw new StorageError('NotFound', `${key} not found`);
    const revision = this.toStore(response.header.revision);
    await this.feed.waitFor(response.header.revision);
    return { key, revision, object: decodeObject(previous.value, revision) };
  }

  async changesSince(after: number, limit?: number): Promise<ChangeRecord[]> {
    assertRevision(after);
    await this.checkReadable(after);
    const current = await this.etcdRevision();
    if (this.toEtcd(after) > current)
      throw new StorageError('FutureRevision', `revision ${after} is newer than the current revision`);
    try {
      const events = await readHistory(
        this.kv,
        this.layout.all,
        this.toEtcd(after) + 1,
        current,
        limit,
        this.layout.prefix + '/',
      );
      return events.flatMap((event) => this.change(event) ?? []);
    } catch (error) {
      if (isCompactedError(error)) await this.learnCompacted();
      throw storageErrorOf(error, after);
    }
  }

  async compact(revision: number): Promise<void> {
    assertRevision(revision);
    if (revision <= (await this.compactedRevision())) return;
    const target = this.toEtcd(revision);
    if (target > (await this.etcdRevision()))
      throw new StorageError('FutureRevision', `revision ${revision} is newer than the current revision`);
    try {
      await this.kv.compact({ revision: target, physical: true });
    } catch (error) {
      // Another replica compacted further already.
      if (!isCompactedError(error)) throw storageErrorOf(error, revision);
    }
    this.etcdCompacted = Math.max(this.etcdCompacted, target);
  }

  async getSetting<T>(name: string): Promise<T | undefined> {
    const response = await this.call(() => this.kv.range({ key: Buffer.from(this.layout.setting(name)) }));
    const kv = response.kvs[0];
    return kv ? decodeValue<T>(kv.value) : undefined;
  }

  async setSetting<T>(name: string, value: T): Promise<void> {
    const key = Buffer.from(this.layout.setting(name));
    const encoded = Buffer.from(encodeValue(value));
    // Rewriting a setting with its value writes nothing, so it takes no revision (etcd gives every put one).
    await this.call(() =>
      this.kv.txn({
        compare: [{ key, target: 'Value', result: 'Equal', value: encoded }],
        failure: [{ request_put: { key, value: encoded } }],
      }),
    );
  }

  async initSetting<T>(name: string, value: T): Promise<T> {
    const key = Buffer.from(this.layout.setting(name));
    const encoded = encodeValue(value);
    // One transaction: replicas starting together on one etcd all end up with the first value stored.
    const response = await this.call(() =>
      this.kv.txn({
        compare: [{ key, target: 'Version', result: 'Equal', version: 0 }],
        success: [{ request_put: { key, value: Buffer.from(encoded) } }],
        failure: [{ request_range: { key } }],
      }),
    );
    const stored = response.succeeded ? undefined : response.responses[0]?.response_range?.kvs[0];
    return stored ? (decodeValue<T>(stored.value) as T) : (decodeValue<T>(Buffer.from(encoded)) as T);
  }

  onCommit(listener: CommitListener): () => void {
    const entry: CommitListener = (change) => listener(change);
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  async clear(): Promise<void> {
    await this.replaceAll(0);
  }

  async exportState(): Promise<Blob> {
    const objects = (await this.list({ prefix: '/' })).items;
    const compacted = await this.compactedRevision();
    // The format keeps the change at the compacted revision too (etcd still has it), and one change per revision.
    const history = (
      await readHistory(
        this.kv,
        this.layout.all,
        this.toEtcd(Math.max(compacted, 1)),
        await this.etcdRevision(),
        undefined,
        this.layout.prefix + '/',
      )
    ).flatMap((event) => this.change(event) ?? []);
    // etcd's history skips the revisions settings took, so only its unbroken tail is exported.
    let first = history.length - 1;
    while (
      first > 0 &&
      (history[first] as ChangeRecord).revision === (history[first - 1] as ChangeRecord).revision + 1
    )
      first--;
    let changes = history.slice(Math.max(first, 0));
    if (changes.length === 0 && objects.length > 0) {
      // Nothing changed since the last compaction: the newest object stands for the history's last entry.
      const newest = objects.reduce((a, b) => (b.revision > a.revision ? b : a));
      changes = [{ revision: newest.revision, type: 'ADDED', key: newest.key, object: newest.object }];
    }
    const firstRevision = changes[0]?.revision ?? 0;
    const revision = changes.at(-1)?.revision ?? 0;
    const settings = new Map<string, unknown>();
    const rows = await this.call(() =>
      this.kv.range({
        key: Buffer.from(this.layout.settings),
        range_end: Buffer.from(this.settingsEnd()),
      }),
    );
    for (const kv of rows.kvs)
      settings.set(kv.key.toString().slice(this.layout.settings.length), decodeValue(kv.value));
    const text = buildExport({
      databaseName: exportName,
      objects,
      changes,
      revision,
      compacted: firstRevision <= 1 && compacted === 0 ? 0 : firstRevision,
      settings,
    });
    return new Blob([text], { type: 'application/json' });
  }

  async importState(data: Blob, options: ImportOptions = {}): Promise<void> {
    const state = parseExport(await data.text());
    const totalRows = exportRowCount(state);
    options.onProgress?.({ completedRows: 0, totalRows });
    const plan = planImport(state, importBatch);
    let completedRows = 0;
    while (this.importGate) await this.importGate;
    let openGate = (): void => undefined;
    this.importGate = new Promise((resolve) => (openGate = resolve));
    this.importing = true;
    try {
      // The base row's revision stands for `plan.baseRevision`, so each later write lands on its exported revision.
      let last = await this.replaceAll(plan.baseRevision, state.settings);
      completedRows += state.settings.size + 2;
      for (const batch of plan.batches) {
        const response = await this.call(() =>
          this.kv.txn({
            success: batch.map((stored) => ({
              request_put: {
                key: Buffer.from(this.layout.object(stored.key)),
                value: Buffer.from(encodeObject(stored.object)),
              },
            })),
          }),
        );
        last = response.header.revision;
        completedRows += batch.length;
        options.onProgress?.({ completedRows: Math.min(completedRows, totalRows), totalRows });
      }
      for (const change of state.changes) {
        const etcdKey = Buffer.from(this.layout.object(change.key));
        // One write per change: a transaction of one operation takes one revision, as a Put or DeleteRange would.
        const response = await this.call(() =>
          this.kv.txn({
            success: [
              change.type === 'DELETED'
                ? { request_delete_range: { key: etcdKey } }
                : { request_put: { key: etcdKey, value: Buffer.from(encodeObject(change.object)) } },
            ],
          }),
        );
        last = response.header.revision;
        completedRows++;
        if (completedRows % 50 === 0)
          options.onProgress?.({ completedRows: Math.min(completedRows, totalRows), totalRows });
      }
      if (state.compacted > 0) await this.compact(state.compacted);
      this.suppressThrough = last;
      await this.feed.waitFor(last);
    } finally {
      this.importing = false;
      this.importGate = undefined;
      openGate();
    }
    options.onProgress?.({ completedRows: totalRows, totalRows });
  }

  async close(): Promise<void> {
    await this.feed.stop();
    this.kv.close();
  }

  /**
   * Deletes every object and setting and writes the base row (and `settings`)
   * in one transaction, so that its revision reads as `baseRevision`; returns
   * that etcd revision. etcd refuses a transaction that deletes a range and
   * puts a key inside it, so settings are deleted one by one, except those
   * being written.
   */
  private async replaceAll(
    baseRevision: number,
    settings: Map<string, unknown> = new Map(),
  ): Promise<number> {
    const objects = this.layout.objects;
    const names = await this.call(() =>
      this.kv.range({
        key: Buffer.from(this.layout.settings),
        range_end: Buffer.from(this.settingsEnd()),
        keys_only: true,
      }),
    );
    const stale = names.kvs
      .map((kv) => kv.key.toString())
      .filter((key) => !settings.has(key.slice(this.layout.settings.length)));
    const response = await this.call(() =>
      this.kv.txn({
        success: [
          { request_delete_range: { key: Buffer.from(objects.start), range_end: Buffer.from(objects.end) } },
          ...stale.map((key) => ({ request_delete_range: { key: Buffer.from(key) } })),
          {
            request_put: {
              key: Buffer.from(this.layout.base),
              value: Buffer.from(JSON.stringify({ offset: baseRevision })),
            },
          },
          ...[...settings].map(([name, value]) => ({
            request_put: {
              key: Buffer.from(this.layout.setting(name)),
              value: Buffer.from(encodeValue(value)),
            },
          })),
        ],
      }),
    );
    const revision = response.header.revision;
    this.base = revision - baseRevision;
    this.suppressThrough = Math.max(this.suppressThrough, revision);
    await this.feed.waitFor(revision);
    return revision;
  }

  private async listenerReadsDone(): Promise<void> {
    // This process's writes wait while an import replays its revisions (see import-plan.ts).
    while (this.importGate) await this.importGate;
    if (this.listenerReads.size > 0) await Promise.allSettled([...this.listenerReads]);
  }

  private settingsEnd(): string {
    return this.layout.settings.slice(0, -1) + '0';
  }

  private onEvents(events: WatchEvent[], revision: number): void {
    const baseRow = events.find((event) => event.kv.key.toString() === this.layout.base);
    if (baseRow) {
      // A clear or an import (here or in another replica): its deletions are not changes anyone hears.
      this.setBase(baseRow.type === 'Put' ? baseRow.kv : undefined);
      return;
    }
    if (this.importing || revision <= this.suppressThrough) return;
    for (const event of events) {
      const change = this.change(event);
      if (!change) continue;
      this.delivering = true;
      for (const listener of [...this.listeners]) {
        try {
          listener(change);
        } catch (error) {
          console.error('storage commit listener failed', error);
        } finally {
          this.delivering = false;
        }
        this.delivering = true;
      }
      this.delivering = false;
    }
  }

  private change(event: WatchEvent): ChangeRecord | undefined {
    const key = this.layout.storeKey(event.kv.key.toString());
    if (key === undefined) return undefined;
    const revision = this.toStore(event.kv.mod_revision);
    const previous =
      event.prev_kv && event.prev_kv.value.length > 0
        ? decodeObject(event.prev_kv.value, this.toStore(event.prev_kv.mod_revision))
        : undefined;
    if (event.type === 'Delete') {
      if (!previous) return undefined;
      return { revision, type: 'DELETED', key, object: stamp(previous, revision), previous };
    }
    const object = decodeObject(event.kv.value, revision);
    return event.kv.version === 1 || !previous
      ? { revision, type: 'ADDED', key, object }
      : { revision, type: 'MODIFIED', key, object, previous };
  }

  private setBase(kv: Row | undefined): void {
    if (!kv) {
      this.base = 0;
      return;
    }
    const { offset } = JSON.parse(kv.value.toString()) as { offset: number };
    this.base = kv.mod_revision - offset;
  }

  private stored(key: string, kv: Row): StoredObject {
    const revision = this.toStore(kv.mod_revision);
    return { key, revision, object: decodeObject(kv.value, revision) };
  }

  private writeFailure(key: string, current: Row | undefined, expected: number | undefined): StorageError {
    if (!current) return new StorageError('NotFound', `${key} not found`);
    const stored = this.stored(key, current);
    return new StorageError(
      'RevisionMismatch',
      `${key} is at revision ${stored.revision}, not ${expected ?? '?'}`,
      stored,
    );
  }

  private async checkReadable(revision: number): Promise<void> {
    const compacted = await this.compactedRevision();
    if (revision < compacted)
      throw new StorageError(
        'Compacted',
        `revision ${revision} has been compacted (oldest readable: ${compacted})`,
      );
    if (this.toEtcd(revision) > (await this.etcdRevision()))
      throw new StorageError('FutureRevision', `revision ${revision} is newer than the current revision`);
  }

  private async learnCompacted(): Promise<void> {
    const current = await this.etcdRevision();
    this.etcdCompacted = await findCompactedRevision(this.kv, this.layout.base, this.etcdCompacted, current);
  }

  private async etcdRevision(): Promise<number> {
    const response = await this.call(() =>
      this.kv.range({ key: Buffer.from(this.layout.base), count_only: true }),
    );
    return response.header.revision;
  }

  /** A read at a store revision: a compaction by another replica shows here first. */
  private async read<T>(revision: number, run: () => Promise<T>): Promise<T> {
    if (this.delivering)
      return this.call(run).catch(async (error: unknown) => {
        if (error instanceof StorageError && error.code === 'Compacted')
          await this.learnCompacted().catch(() => undefined);
        throw error;
      });
    try {
      return await run();
    } catch (error) {
      if (isCompactedError(error)) await this.learnCompacted().catch(() => undefined);
      throw storageErrorOf(error, revision);
    }
  }

  private async call<T>(run: () => Promise<T>): Promise<T> {
    if (this.delivering) {
      const read = run();
      this.listenerReads.add(read);
      void read.catch(() => undefined).finally(() => this.listenerReads.delete(read));
      return read.catch((error: unknown) => {
        throw storageErrorOf(error);
      });
    }
    try {
      return await run();
    } catch (error) {
      throw storageErrorOf(error);
    }
  }

  private toStore(etcdRevision: number): number {
    return etcdRevision - this.base;
  }

  private toEtcd(revision: number): number {
    return revision + this.base;
  }
}
