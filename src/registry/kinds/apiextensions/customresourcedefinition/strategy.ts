/**
 * The CRD kind's strategy. A CRD starts with an empty status whose
 * storedVersions hold its storage version; every later storage version is
 * appended (the real strategy's PrepareForCreate / PrepareForUpdate); it is
 * validated as the real server validates it (asynchronously: the
 * validation is a lazy script, crd/library.ts, and a schema with rules or
 * patterns loads the CEL library first); and its first
 * DELETE adds the cleanup finalizer instead of removing it.
 */

import type { KubeObject } from '../../../../api/meta';
import { celLibrary } from '../../../../cel/engine';
import type { KindHooks, StrategyContext } from '../../../rest/strategy';
import { dropDisabledValidations } from '../../../crd/drop-validations';
import { crdNeedsCelLibrary } from '../../../crd/needs-cel';
import { asCrd } from '../../../crd/types';
import { crdMachinery } from '../../../crd/library';
import { beginDeletion } from './deletion';

function storageVersionName(obj: KubeObject): string | undefined {
  return asCrd(obj).spec?.versions?.find((v) => v.storage === true)?.name;
}

/** CustomResourceValidationExpressions off: CEL rules are dropped as the real strategy drops them. */
const celDisabled = (ctx: StrategyContext): boolean =>
  ctx.featureGates?.CustomResourceValidationExpressions === false;

export const crdHooks: KindHooks = {
  prepareForCreate(obj, ctx) {
    if (celDisabled(ctx)) dropDisabledValidations(ctx.profile, obj, undefined);
    const storage = storageVersionName(obj);
    obj.status = {
      acceptedNames: { plural: '', kind: '' },
      ...(storage !== undefined ? { storedVersions: [storage] } : {}),
    };
  },
  prepareForUpdate(obj, old, ctx) {
    if (celDisabled(ctx)) dropDisabledValidations(ctx.profile, obj, old);
    const storage = storageVersionName(obj);
    if (storage === undefined) return;
    const status = asCrd(obj).status ?? {};
    const stored = status.storedVersions ?? [];
    if (!stored.includes(storage)) obj.status = { ...status, storedVersions: [...stored, storage] };
  },
  async validateAsync(obj, old, ctx) {
    if (crdNeedsCelLibrary(ctx.profile, obj)) await celLibrary.load();
    // Also the registrar's builder: the commit serves the CRD's resources synchronously.
    const { validateCrdCreate, validateCrdUpdate } = await crdMachinery.load();
    return old === undefined
      ? validateCrdCreate(ctx.profile, ctx.definitions, asCrd(obj))
      : validateCrdUpdate(ctx.profile, ctx.definitions, asCrd(obj), asCrd(old));
  },
  beginDelete: (obj, ctx) => beginDeletion(ctx.profile, obj, ctx.now),
};
