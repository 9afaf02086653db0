/**
 * `pods/status`: as the real pod status strategy, a write through it keeps
 * the spec, the owner references and the deletion timestamp, but may change
 * labels, annotations and finalizers. The simulated node agent writes a
 * pod's simulated resource usage (`sandbox.orch.io/cpu-usage`, read by the
 * HorizontalPodAutoscaler) this way, with the rest of the pod's status, as
 * the node identity that may write only its pods' status.
 */

import { statusStrategy } from '../../../generic/strategy';
import type { RestStorage } from '../../../rest/capabilities';
import type { KindHooks } from '../../../rest/strategy';
import type { StoredKindContext } from '../../types';

export function podStatusStorage(hooks: KindHooks): (ctx: StoredKindContext) => RestStorage {
  return (ctx) => {
    const status = ctx.store.withStrategy(
      statusStrategy(ctx.rt, hooks, ['labels', 'annotations', 'finalizers']),
    );
    return {
      get: (scope, name, options) => status.get(scope, name, options),
      update: (scope, name, objInfo, options) => status.update(scope, name, objInfo, options),
    };
  };
}
