/**
 * A Namespace's strategy: a new one gets the lifecycle finalizer in
 * `spec.finalizers` (and phase Active, its initial status); after that
 * `spec.finalizers` changes only through the finalize subresource.
 */

import type { KindHooks } from '../../../rest/strategy';

type NamespaceSpec = { finalizers?: string[] };

export const namespaceHooks: KindHooks = {
  prepareForCreate(obj, ctx) {
    const spec = (obj.spec ?? {}) as NamespaceSpec;
    spec.finalizers = [ctx.namespaceFinalizer];
    obj.spec = spec;
  },
  prepareForUpdate(obj, old) {
    const oldSpec = old.spec as NamespaceSpec | undefined;
    const spec = (obj.spec ?? {}) as NamespaceSpec;
    if (oldSpec?.finalizers === undefined) delete spec.finalizers;
    else spec.finalizers = [...oldSpec.finalizers];
    obj.spec = spec;
  },
};
