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
  return new Proxy(storage, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      const op = typeof property === 'string' ? operations[property as keyof Storage] : undefined;
      if (typeof value !== 'function') return value;
      // Called on the store itself, so backends with private state behave as unwrapped.
      if (op === undefined) return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          observe(op.operation, typeOfKey(op.key(args)), (performance.now() - started) / 1000);
        }
      };
    },
  });
}
