/**
 * The first DELETE of a CRD does not remove it: as in the real server, the
 * cleanup finalizer is added and the Terminating condition set, so the CRD
 * stays until the finalizing controller has deleted its objects.
 */

import type { KubeObject } from '../../../../api/meta';
import { rfc3339Seconds } from '../../../../machinery/ids';
import { deepClone } from '../../../../machinery/json';
import type { NamingProfile } from '../../../../machinery/naming';
import { asCrd, cleanupFinalizer, setCondition } from '../../../crd/types';

/** The CRD as its deletion begins (finalizer and Terminating added); unchanged when already terminating. */
export function beginDeletion(profile: NamingProfile, obj: KubeObject, now: Date): KubeObject {
  const meta = obj.metadata ?? {};
  if (meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null) return obj;
  const next = asCrd(deepClone(obj));
  const m = next.metadata ?? (next.metadata = {});
  const finalizer = cleanupFinalizer(profile);
  if (!(m.finalizers ?? []).includes(finalizer)) m.finalizers = [...(m.finalizers ?? []), finalizer];
  const status = next.status ?? (next.status = {});
  status.conditions = setCondition(
    status.conditions ?? [],
    {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    },
    rfc3339Seconds(now),
  );
  return next;
}
