/**
 * The CRD kind's strategy. A CRD starts with an empty status whose
 * storedVersions hold its storage version; every later storage version is
 * appended (the real strategy's PrepareForCreate / PrepareForUpdate); it is
 * validated as the real server validates it; and its first DELETE adds the
 * cleanup finalizer instead of removing it.
 */

import type { KubeObject } from '../../../../api/meta';
import type { KindHooks } from '../../../rest/strategy';
import { asCrd } from '../../../crd/types';
import { beginDeletion } from './deletion';
import { validateCrdCreate, validateCrdUpdate } from '../../../crd/validate-crd';

function storageVersionName(obj: KubeObject): string | undefined {
  return asCrd(obj).spec?.versions?.find((v) => v.storage === true)?.name;
}

export const crdHooks: KindHooks = {
  prepareForCreate(obj) {
    const storage = storageVersionName(obj);
    obj.status = {
      acceptedNames: { plural: '', kind: '' },
      ...(storage !== undefined ? { storedVersions: [storage] } : {}),
    };
  },
  prepareForUpdate(obj) {
    const storage = storageVersionName(obj);
    if (storage === undefined) return;
    const status = asCrd(obj).status ?? {};
    const stored = status.storedVersions ?? [];
    if (!stored.includes(storage)) obj.status = { ...status, storedVersions: [...stored, storage] };
  },
  validate(obj, ctx) {
    return validateCrdCreate(ctx.profile, ctx.definitions, asCrd(obj));
  },
  validateUpdate(obj, old, ctx) {
    return validateCrdUpdate(ctx.profile, ctx.definitions, asCrd(obj), asCrd(old));
  },
  beginDelete: (obj, ctx) => beginDeletion(ctx.profile, obj, ctx.now),
};
