/**
 * PersistentVolumeClaimResize: growing a claim's requested storage is
 * allowed only for a bound claim whose StorageClass says
 * `allowVolumeExpansion: true` — expansion is the provisioner's job, and a
 * class that cannot do it would leave the claim asking for space it never
 * gets. Shrinking or leaving the size alone is not this plugin's concern.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { compare, parseQuantity, zero } from '../../machinery/quantity';

interface ClaimShape {
  spec?: { storageClassName?: string | null; resources?: { requests?: Record<string, unknown> } };
  status?: { phase?: string };
}

export const persistentVolumeClaimResize: AdmissionPluginFactory = (deps) => {
  const classes = deps.lister(deps.profile.suffixed('storage'), 'storageclasses');
  const betaClassAnnotation = deps.profile.subPrefixed('volume.beta', 'storage-class');

  /** The claim's class as the real `GetPersistentVolumeClaimClass` reads it: the beta annotation wins. */
  const classOf = (claim: KubeObject): string => {
    const beta = claim.metadata?.annotations?.[betaClassAnnotation];
    if (beta !== undefined) return beta;
    return (claim as ClaimShape).spec?.storageClassName ?? '';
  };

  /** Both versions must name the same class (a class change cannot smuggle in expansion). */
  const allowsResize = async (next: KubeObject, previous: KubeObject): Promise<boolean> => {
    const name = classOf(next);
    if (name === '' || name !== classOf(previous)) return false;
    await deps.listersSynced();
    const storageClass = classes.get('', name) as { allowVolumeExpansion?: boolean } | undefined;
    return storageClass?.allowVolumeExpansion === true;
  };

  return {
    name: 'PersistentVolumeClaimResize',
    operations: ['UPDATE'],
    async validate(a) {
      if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '') return;
      if (a.object === undefined || a.oldObject === undefined) return;
      const next = a.object as ClaimShape;
      const previous = a.oldObject as ClaimShape;
      // A missing or unparsable size counts as zero: validation reports it, not this plugin.
      const size = (claim: ClaimShape) => parseQuantity(claim.spec?.resources?.requests?.['storage']) ?? zero;
      const grows = compare(size(next), size(previous)) > 0;
      if (!grows) return;
      if (previous.status?.phase !== 'Bound')
        throw admissionForbidden(a, 'Only bound persistent volume claims can be expanded');
      if (await allowsResize(a.object, a.oldObject)) return;
      throw admissionForbidden(
        a,
        'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      );
    },
  };
};
