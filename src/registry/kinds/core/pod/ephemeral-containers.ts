/**
 * `pods/<name>/ephemeralcontainers`: changes `spec.ephemeralContainers`
 * and nothing else of the pod, as the real ephemeral-containers strategy.
 */

import { deepClone } from '../../../../machinery/json';
import type { Getter, Updater } from '../../../rest/capabilities';
import { subresourceStrategy } from '../../../generic/strategy';
import type { StoredKindContext } from '../../types';

type PodSpec = { ephemeralContainers?: unknown };

export function ephemeralContainersStorage(ctx: StoredKindContext): Getter & Updater {
  const strategy = subresourceStrategy(ctx.rt, undefined, (next, requested) => {
    const spec = { ...((next.spec as PodSpec | undefined) ?? {}) };
    const wanted = (requested.spec as PodSpec | undefined)?.ephemeralContainers;
    if (wanted === undefined) delete spec.ephemeralContainers;
    else spec.ephemeralContainers = deepClone(wanted);
    next.spec = spec;
  });
  const store = ctx.store.withStrategy(strategy);
  return {
    get: (scope, name, options) => store.get(scope, name, options),
    update: (scope, name, objInfo, options) => store.update(scope, name, objInfo, options),
  };
}
