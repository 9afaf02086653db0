/**
 * The store seen through `etcd_request_duration_seconds`: every object read
 * and write is timed and labelled as the real etcd3 store labels it
 * (operation `get`, `list`, `listWithCount`, `create`, `update`, `delete`;
 * type the group-resource, `pods` or `deployments.apps`), whichever backend
 * holds the state, so the metric means the same on memory, Dexie and etcd.
 */

import type { Storage } from '../storage/types';
import { groupResourceLabel } from './metrics';

type Observe = (operation: string, type: string, seconds: number) => void;

/** `/apps/deployments/ns/name` → `deployments.apps` (keys are `/<group|core>/<resource>/...`, see registry/keys.ts). */
function typeOfKey(key: string): string {
  const [group = '', resource = ''] = key.split('/').filter((p) => p !== '');
  return groupResourceLabel(group === 'core' ? '' : group, resource);
}

/** Labels by the key's `/<group>/<resource>/` part, so that a write labels its key without splitting all of it. */
const typeByPrefix = new Map<string, string>();

function typeOfKeyCached(key: string): string {
  const second = key.startsWith('/') ? key.indexOf('/', 1) : -1;
  const third = second > 0 ? key.indexOf('/', second + 1) : -1;
  // Keys of another shape (a bare prefix, no leading slash) are labelled as before, uncached.
  if (second <= 1 || third <= second + 1) return typeOfKey(key);
  const prefix = key.slice(0, third + 1);
  let type = typeByPrefix.get(prefix);
  if (type === undefined) {
    type = typeOfKey(prefix);
    if (typeByPrefix.size < 4096) typeByPrefix.set(prefix, type);
  }
  return type;
}

const operations: Partial<Record<keyof Storage, { operation: string; key: (args: unknown[]) => string }>> = {
  get: { operation: 'get', key: (a) => String(a[0]) },
  getAt: { operation: 'get', key: (a) => String(a[0]) },
  list: { operation: 'list', key: (a) => (a[0] as { prefix: string }).prefix },
  count: { operation: 'listWithCount', key: (a) => String(a[0]) },
  create: { operation: 'create', key: (a) => String(a[0]) },
  update: { operation: 'update', key: (a) => String(a[0]) },
  delete: { operation: 'delete', key: (a) => String(a[0]) },
};

export function instrumentStorage(storage: Storage, observe: Observe): Storage {
  // One wrapper per method, made when first asked for (every write asked for a new closure, or a bound copy).
  const wrapped = new Map<PropertyKey, { of: unknown; fn: unknown }>();
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const known = wrapped.get(property);
      if (known !== undefined && known.of === value) return known.fn;
      const op = typeof property === 'string' ? operations[property as keyof Storage] : undefined;
      // Called on the store itself, so backends with private state behave as unwrapped.
      const fn =
        op === undefined
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : async (...args: unknown[]) => {
              const started = performance.now();
              try {
                return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              } finally {
                observe(op.operation, typeOfKeyCached(op.key(args)), (performance.now() - started) / 1000);
              }
            };
      wrapped.set(property, { of: value, fn });
      return fn;
    },
  });
}
