/**
 * Strategy hooks of the CRD kind and of custom resources. A CRD starts with
 * an empty status whose storedVersions hold its storage version; every later
 * storage version is appended (the real strategy's PrepareForCreate /
 * PrepareForUpdate), and it is validated as the real server validates it.
 * A custom resource is validated against its version's schema and rules,
 * and cannot be created while its CRD is terminating.
 */

import type { KubeObject } from '../../api/meta';
import { StatusError } from '../../machinery/errors';
import type { KindHooks } from '../kind-hooks';
import type { ResourceType } from '../resource-type';
import { asCrd } from './types';
import { validateCrdCreate, validateCrdUpdate } from './validate-crd';

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
};

const hooksByType = new WeakMap<ResourceType, KindHooks>();

export function customResourceHooks(rt: ResourceType): KindHooks {
  let hooks = hooksByType.get(rt);
  if (hooks !== undefined) return hooks;
  const facts = rt.crd;
  hooks = {
    prepareForCreate() {
      if (facts?.terminating === true)
        throw new StatusError(
          405,
          'MethodNotAllowed',
          'create not allowed while custom resource definition is terminating',
          {
            group: rt.group,
            kind: rt.resource,
          },
        );
    },
    validate: (obj) => facts?.validate(obj) ?? [],
    validateUpdate: (obj, old) => facts?.validate(obj, old) ?? [],
  };
  hooksByType.set(rt, hooks);
  return hooks;
}
