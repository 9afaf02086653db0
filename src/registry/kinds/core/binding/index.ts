/**
 * The top-level `bindings` resource: POST a Binding named after a pod to
 * assign that pod to a node, exactly as `pods/<name>/binding` does (the
 * real server's legacy binding storage). Nothing is stored, so this is the
 * kind's whole storage: create and nothing else. The binding itself is
 * loaded with the first one (lazy-subresources.ts).
 */

import { badRequest } from '../../../../machinery/errors';
import type { Creater } from '../../../rest/capabilities';
import type { KindRegistration, KindStorageContext } from '../../types';
import { loadSubresources } from '../lazy-subresources';

function bindingsStorage(ctx: KindStorageContext): Creater {
  return {
    async create(scope, object) {
      const pods = ctx.storeFor('', 'pods');
      if (pods === undefined) throw badRequest('pods are not served, so no pod can be bound');
      const { bind } = await loadSubresources();
      return bind(ctx.deps, ctx.rt, pods, scope, object.metadata?.name ?? '', object);
    },
  };
}

export const binding: KindRegistration = { storage: bindingsStorage };
