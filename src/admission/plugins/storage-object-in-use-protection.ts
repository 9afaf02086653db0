/**
 * StorageObjectInUseProtection: every new PersistentVolumeClaim gets the
 * finalizer `<domain>/pvc-protection` and every new PersistentVolume
 * `<domain>/pv-protection`, so deleting one that a pod still uses only
 * marks it terminating; the protection controller removes the finalizer
 * once nothing uses it and the deletion completes.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';

export const storageObjectInUseProtection: AdmissionPluginFactory = (deps) => {
  const finalizers: Record<string, string> = {
    persistentvolumeclaims: deps.profile.prefixed('pvc-protection'),
    persistentvolumes: deps.profile.prefixed('pv-protection'),
  };
  return {
    name: 'StorageObjectInUseProtection',
    operations: ['CREATE'],
    async admit(a): Promise<KubeObject | undefined> {
      if (a.group !== '' || a.subresource !== '' || a.object === undefined) return undefined;
      const finalizer = finalizers[a.resource];
      if (finalizer === undefined) return undefined;
      const present = a.object.metadata?.finalizers ?? [];
      if (present.includes(finalizer)) return undefined;
      const next = structuredClone(a.object);
      next.metadata = { ...(next.metadata ?? {}), finalizers: [...present, finalizer] };
      return Promise.resolve(next);
    },
  };
};
