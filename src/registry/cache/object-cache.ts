/**
 * The in-memory store behind one informer: the current objects of one
 * storage collection by storage key, bucketed by namespace so a namespace's
 * list costs its own size, plus any registered indexes (value → keys). It
 * knows nothing of storage or events; the informer decides what to put in.
 */

import type { KubeObject } from '../../api/meta';
import type { IndexFunc, Lister } from './types';

export interface CacheEntry {
  /** Frozen; the cache's own copy. */
  object: KubeObject;
  /** The storage revision of the object's last change. */
  revision: number;
}

interface Index {
  fn: IndexFunc;
  keys: Map<string, Set<string>>;
}

export class ObjectCache implements Lister {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly namespaces = new Map<string, Set<string>>();
  private readonly indexes = new Map<string, Index>();

  /** `prefix`: the collection's key prefix (`collectionPrefix` without a namespace). */
  constructor(private readonly prefix: string) {}

  get size(): number {
    return this.entries.size;
  }

  entry(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** Stores `object` under `key`; returns the entry it replaced. */
  set(key: string, object: KubeObject, revision: number): CacheEntry | undefined {
    const previous = this.entries.get(key);
    if (previous !== undefined) this.unindex(key, previous.object);
    else bucket(this.namespaces, this.namespaceOf(key)).add(key);
    this.entries.set(key, { object, revision });
    for (const [name, index] of this.indexes)
      for (const v of values(name, index, object)) bucket(index.keys, v).add(key);
    return previous;
  }

  /** Removes `key`; returns the entry it held. */
  delete(key: string): CacheEntry | undefined {
    const previous = this.entries.get(key);
    if (previous === undefined) return undefined;
    this.entries.delete(key);
    this.unindex(key, previous.object);
    unbucket(this.namespaces, this.namespaceOf(key), key);
    return previous;
  }

  /**
   * Registers an index and indexes what is cached. Registering the same
   * function under the same name again is a no-op, so consumers sharing an
   * informer can each ask for the index they need.
   */
  addIndex(name: string, fn: IndexFunc): void {
    const existing = this.indexes.get(name);
    if (existing !== undefined) {
      if (existing.fn === fn) return;
      throw new Error(`informer index ${name} is already registered with another function`);
    }
    const index: Index = { fn, keys: new Map() };
    for (const [key, { object }] of this.entries)
      for (const v of values(name, index, object)) bucket(index.keys, v).add(key);
    this.indexes.set(name, index);
  }

  get(namespace: string, name: string): KubeObject | undefined {
    const rest = namespace === '' ? name : `${namespace}/${name}`;
    return this.entries.get(`${this.prefix}${rest}`)?.object;
  }

  list(namespace?: string): KubeObject[] {
    if (namespace === undefined) return [...this.entries.values()].map((e) => e.object);
    return this.objects(this.namespaces.get(namespace));
  }

  byIndex(indexName: string, value: string): KubeObject[] {
    const index = this.indexes.get(indexName);
    if (index === undefined) throw new Error(`informer index ${indexName} is not registered`);
    return this.objects(index.keys.get(value));
  }

  private objects(keys: Set<string> | undefined): KubeObject[] {
    const out: KubeObject[] = [];
    for (const key of keys ?? []) {
      const entry = this.entries.get(key);
      if (entry !== undefined) out.push(entry.object);
    }
    return out;
  }

  private unindex(key: string, object: KubeObject): void {
    for (const [name, index] of this.indexes)
      for (const v of values(name, index, object)) unbucket(index.keys, v, key);
  }

  /** Taken from the key, not the object: a key is `<prefix>[<namespace>/]<name>` and names hold no `/`. */
  private namespaceOf(key: string): string {
    const rest = key.slice(this.prefix.length);
    const slash = rest.indexOf('/');
    return slash < 0 ? '' : rest.slice(0, slash);
  }
}

/** An index function's values; one that throws indexes the object nowhere rather than leave the cache half-updated. */
function values(name: string, index: Index, object: KubeObject): readonly string[] {
  try {
    return index.fn(object);
  } catch (error) {
    console.error(`informer index ${name} failed`, error);
    return [];
  }
}

function bucket(map: Map<string, Set<string>>, value: string): Set<string> {
  let set = map.get(value);
  if (set === undefined) {
    set = new Set();
    map.set(value, set);
  }
  return set;
}

function unbucket(map: Map<string, Set<string>>, value: string, key: string): void {
  const set = map.get(value);
  if (set === undefined) return;
  set.delete(key);
  if (set.size === 0) map.delete(value);
}
