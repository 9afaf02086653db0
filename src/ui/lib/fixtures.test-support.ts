/**
 * Fixtures the UI's unit tests share: a tab storage (sessionStorage) held in a map, and the core group
 * version as discovery reports it (ConfigMaps, the default choice, and Namespaces).
 */

import type { DiscoveredGroupVersion } from '../../client/index';

/** A Storage (sessionStorage, localStorage) holding strings in a map, for code that keeps state per tab. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

/** `v1` with ConfigMaps (listed and watched: the explorer's default) and Namespaces (cluster-scoped). */
export const coreV1: DiscoveredGroupVersion = {
  group: '',
  version: 'v1',
  groupVersion: 'v1',
  preferred: true,
  resources: [
    {
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['list', 'watch'],
    },
    { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: ['list'] },
  ],
};
