/**
 * `namespaces/<name>/finalize`: PUT changes `spec.finalizers` and nothing
 * else — the namespace controller removes the lifecycle finalizer through
 * it once the namespace is empty, which completes the deletion.
 */

import type { KubeObject } from '../../../../api/meta';
import { deepClone } from '../../../../machinery/json';
import type { Updater } from '../../../rest/capabilities';
import type { Strategy } from '../../../rest/strategy';
import type { StoredKindContext } from '../../types';

function finalizeStrategy(main: Strategy): Strategy {
  return {
    ...main,
    allowCreateOnUpdate: false,
    prepareForUpdate(obj, old) {
      const next: KubeObject = deepClone(old);
      const spec = (next.spec ?? {}) as Record<string, unknown>;
      const finalizers = (obj.spec as { finalizers?: unknown } | undefined)?.finalizers;
      if (finalizers === undefined) delete spec.finalizers;
      else spec.finalizers = finalizers;
      next.spec = spec;
      return next;
    },
  };
}

export function finalizeStorage(ctx: StoredKindContext): Updater {
  const store = ctx.store.withStrategy(finalizeStrategy(ctx.store.strategy));
  return { update: (scope, name, objInfo, options) => store.update(scope, name, objInfo, options) };
}
