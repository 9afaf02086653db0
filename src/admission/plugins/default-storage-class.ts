/**
 * DefaultStorageClass: a PersistentVolumeClaim created without a class
 * (`spec.storageClassName` unset and no beta
 * `volume.beta.<domain>/storage-class` annotation) gets the default
 * StorageClass — annotated `storageclass.<domain>/is-default-class: "true"`
 * (or the beta `storageclass.beta.<domain>/…`). No default: nothing happens.
 * More than one: every such creation is refused (the seed's rule; decision
 * 0016). Updates are ignored.
 */

import type { KubeObject } from '../../api/meta';
import type { AdmissionPluginFactory } from '../types';
import { admissionForbidden } from './support/errors';
import { defaultClass } from './support/default-class';

export const defaultStorageClass: AdmissionPluginFactory = (deps) => {
  const { profile } = deps;
  const classes = deps.lister(profile.suffixed('storage'), 'storageclasses');
  const defaultAnnotations = [
    profile.subPrefixed('storageclass', 'is-default-class'),
    profile.subPrefixed('storageclass.beta', 'is-default-class'),
  ];
  const betaClassAnnotation = profile.subPrefixed('volume.beta', 'storage-class');
  return {
    name: 'DefaultStorageClass',
    operations: ['CREATE'],
    async admit(a): Promise<KubeObject | undefined> {
      if (
        a.group !== '' ||
        a.resource !== 'persistentvolumeclaims' ||
        a.subresource !== '' ||
        a.object === undefined
      )
        return undefined;
      const spec = (a.object.spec ?? {}) as { storageClassName?: unknown };
      if (spec.storageClassName !== undefined && spec.storageClassName !== null) return undefined;
      if (a.object.metadata?.annotations?.[betaClassAnnotation] !== undefined) return undefined;
      await deps.listersSynced();
      const found = defaultClass(classes, defaultAnnotations);
      if (found.kind === 'none') return undefined;
      if (found.kind === 'several')
        // The pre-v1.25 plugin wrapped an InternalError in its Forbidden, hence the prefix (decision 0016).
        throw admissionForbidden(
          a,
          `Internal error occurred: ${found.count} default StorageClasses were found`,
        );
      const next = structuredClone(a.object);
      next.spec = { ...((next.spec ?? {}) as object), storageClassName: found.name };
      return next;
    },
  };
};
