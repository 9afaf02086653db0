/**
 * storage/v1 defaults: a StorageClass deletes released volumes and binds
 * immediately; a CSIDriver needs attach, gets no pod info on mount, no
 * capacity tracking or republish, the ReadWriteOnceWithFSType fsGroup
 * policy and persistent volumes only (and, with SELinuxMountReadWriteOncePod
 * on as in v1.27, no SELinux mount).
 */

import { child, empty, ptr, type Defaulter } from './helpers';

export const storageDefaults: Record<string, Defaulter> = {
  'api.storage.v1.StorageClass': (sc) => {
    ptr(sc, 'reclaimPolicy', 'Delete');
    ptr(sc, 'volumeBindingMode', 'Immediate');
  },
  'api.storage.v1.CSIDriver': (obj, ctx) => {
    const spec = child(obj, 'spec');
    ptr(spec, 'attachRequired', true);
    ptr(spec, 'podInfoOnMount', false);
    ptr(spec, 'storageCapacity', false);
    ptr(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
    if (empty(spec.volumeLifecycleModes)) spec.volumeLifecycleModes = ['Persistent'];
    ptr(spec, 'requiresRepublish', false);
    if (ctx.gate('SELinuxMountReadWriteOncePod')) ptr(spec, 'seLinuxMount', false);
  },
};
