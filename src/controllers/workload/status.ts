/**
 * Writing a workload's status as the real controllers do: the whole object
 * through its `status` subresource, only when something changed, with the
 * zero values Go leaves out (`omitempty` counters) left out here too, so
 * the stored status reads as a real cluster's.
 */

import type { KubeObject } from '../../api/meta';
import type { ApiClient } from '../../client/client';
import type { ResourceRef } from '../../client/paths';
import { deepEqual } from '../../machinery/json';

/** `status` without the listed keys whose value is 0, undefined or an empty list. */
export function omitZero<T extends object>(status: T, keys: readonly (keyof T)[]): T {
  const out = { ...status };
  for (const k of keys) {
    const v = out[k];
    if (v === undefined || v === 0 || (Array.isArray(v) && v.length === 0)) delete out[k];
  }
  return out;
}

/** PUTs `status` to `obj`'s status subresource unless it equals the current one; returns what is stored. */
export async function writeStatus<T extends KubeObject>(
  client: ApiClient,
  ref: ResourceRef,
  obj: T,
  status: unknown,
): Promise<T> {
  if (deepEqual(obj['status'], status)) return obj;
  return client.update<T>(
    {
      ...ref,
      namespace: obj.metadata?.namespace ?? '',
      name: obj.metadata?.name ?? '',
      subresource: 'status',
    },
    { ...obj, status } as T,
  );
}
