/**
 * Registry access to storage for one resource type: keys from namespace
 * and name, objects presented in the served version, and storage failures
 * turned into the Status errors the real server answers with (NotFound,
 * AlreadyExists, Conflict, Gone, Timeout).
 */

import type { KubeObject } from '../../api/meta';
import {
  alreadyExists,
  notFound,
  resourceExpired,
  tooLargeResourceVersion,
  internalError,
} from '../../machinery/errors';
import { StorageError, type ListOptions, type Storage, type StoredObject } from '../../storage/types';
import { collectionPrefix, objectKey } from '../keys';
import { toServedVersion, toStorageVersion } from '../conversion';
import { groupResource, type ResourceType } from '../resource-type';

export class ObjectStore {
  constructor(readonly storage: Storage) {}

  key(rt: ResourceType, namespace: string, name: string): string {
    return objectKey(rt.storage, rt.namespaced ? namespace : '', name);
  }

  prefix(rt: ResourceType, namespace: string): string {
    return collectionPrefix(rt.storage, rt.namespaced ? namespace : '');
  }

  /** Stored objects in the resource's served version (every read converts from the storage version). */
  private served(rt: ResourceType, s: StoredObject): StoredObject {
    const object = toServedVersion(rt, s.object);
    return object === s.object ? s : { ...s, object };
  }

  async get(rt: ResourceType, namespace: string, name: string): Promise<StoredObject | undefined> {
    const s = await this.storage.get(this.key(rt, namespace, name));
    return s === undefined ? undefined : this.served(rt, s);
  }

  /**
   * The current stored entry from the storage's memory without a copy (see `Storage.peekCurrent`), when serving
   * it makes no new object from the stored one but at most a shallow copy naming another version
   * (`toServedVersion`, which the caller applies only when it needs the object: a kept answer of the entry does
   * not): not for a family with a hub conversion, nor a custom resource (pruned and defaulted by a schema that
   * can change). Undefined otherwise, when memory cannot answer, or when the key does not exist (the read
   * through `get` answers that). It may not be changed.
   */
  peek(rt: ResourceType, namespace: string, name: string): Readonly<StoredObject> | undefined {
    if (rt.conversion !== undefined || rt.crd !== undefined) return undefined;
    const entry = this.storage.peekCurrent?.(this.key(rt, namespace, name));
    return entry === null ? undefined : entry;
  }

  async mustGet(rt: ResourceType, namespace: string, name: string): Promise<StoredObject> {
    const found = await this.get(rt, namespace, name);
    if (found === undefined) throw notFound(groupResource(rt), name);
    return found;
  }

  /** `issued` sees the object as it will be stored, in the served version, while it commits (`Storage.create`). */
  async create(
    rt: ResourceType,
    obj: KubeObject,
    issued?: (object: Readonly<KubeObject>) => void,
  ): Promise<StoredObject> {
    const m = obj.metadata ?? {};
    try {
      return this.served(
        rt,
        await this.storage.create(
          this.key(rt, m.namespace ?? '', m.name ?? ''),
          toStorageVersion(rt, obj),
          issued === undefined ? undefined : (stored) => issued(toServedVersion(rt, stored as KubeObject)),
        ),
      );
    } catch (e) {
      throw this.translate(e, rt, m.name ?? '');
    }
  }

  async update(rt: ResourceType, obj: KubeObject, expectedRevision: number): Promise<StoredObject> {
    const m = obj.metadata ?? {};
    try {
      return this.served(
        rt,
        await this.storage.update(
          this.key(rt, m.namespace ?? '', m.name ?? ''),
          toStorageVersion(rt, obj),
          expectedRevision,
        ),
      );
    } catch (e) {
      throw this.translate(e, rt, m.name ?? '');
    }
  }

  async delete(
    rt: ResourceType,
    namespace: string,
    name: string,
    expectedRevision?: number,
  ): Promise<StoredObject> {
    try {
      return this.served(rt, await this.storage.delete(this.key(rt, namespace, name), expectedRevision));
    } catch (e) {
      throw this.translate(e, rt, name);
    }
  }

  async list(rt: ResourceType, namespace: string, options: Omit<ListOptions, 'prefix'>) {
    try {
      const predicate = options.predicate;
      const result = await this.storage.list({
        ...options,
        prefix: this.prefix(rt, namespace),
        // Selectors see objects as the served version names their fields.
        ...(predicate !== undefined
          ? { predicate: (o: KubeObject) => predicate(toServedVersion(rt, o)) }
          : {}),
      });
      return { ...result, items: result.items.map((s) => this.served(rt, s)) };
    } catch (e) {
      throw this.translate(e, rt, '');
    }
  }

  /** Storage failures as Status errors; RevisionMismatch stays a StorageError so callers can retry. */
  translate(e: unknown, rt: ResourceType, name: string): unknown {
    if (!(e instanceof StorageError)) return e;
    switch (e.code) {
      case 'KeyExists':
        return alreadyExists(groupResource(rt), name);
      case 'NotFound':
        return notFound(groupResource(rt), name);
      case 'RevisionMismatch':
        return e;
      case 'Compacted':
        return resourceExpired(`too old resource version: ${e.message}`);
      case 'FutureRevision': {
        // Handlers wait for a future version before reading, so this only happens in a race; report its numbers.
        const [requested = 0, current = 0] = (e.message.match(/\d+/g) ?? []).map(Number);
        return tooLargeResourceVersion(requested, current);
      }
      default:
        return internalError(e);
    }
  }
}

export function isRevisionMismatch(e: unknown): e is StorageError {
  return e instanceof StorageError && e.code === 'RevisionMismatch';
}
