/**
 * Service: its `proxy` subresource (status is the generic one) and, when the
 * server has allocators, the cluster IPs and node ports each write reserves
 * and each deletion gives back (see allocation.ts).
 */

import type { KubeObject } from '../../../../api/meta';
import type { KindHooks } from '../../../rest/strategy';
import type { KindRegistration, KindStorageContext } from '../../types';
import type { ResourceType } from '../../../resource-type';
import { allocateCreate, allocateUpdate } from './allocation';
import { lazyConnecter, proxyMethods } from '../lazy-subresources';
import { serviceTypeErrors, serviceUpdateErrors } from './validation';

function serviceHooks(_rt: ResourceType, ctx: KindStorageContext): KindHooks {
  const allocators = ctx.services.serviceAllocators;
  const validate = (obj: KubeObject) => serviceTypeErrors(obj);
  const validateUpdate = (obj: KubeObject, old: KubeObject) => [
    ...serviceTypeErrors(obj),
    ...serviceUpdateErrors(obj, old),
  ];
  if (allocators === undefined) return { validate, validateUpdate };
  return {
    validate,
    validateUpdate,
    beginWrite: (obj, old, sctx) => {
      const dryRun = sctx.scope?.dryRun ?? false;
      return old === undefined
        ? allocateCreate(allocators, obj, dryRun)
        : allocateUpdate(allocators, obj, old, dryRun);
    },
    afterDelete: (obj) => allocators.releaseAll(obj),
  };
}

export const service: KindRegistration = {
  hooks: serviceHooks,
  subresources: { proxy: lazyConnecter(proxyMethods, (m, ctx) => m.serviceProxyStorage(ctx)) },
};
