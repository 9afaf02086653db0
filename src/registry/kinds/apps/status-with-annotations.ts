/**
 * The `status` subresource of the kinds whose real status strategy resets
 * only `spec` and `labels`: annotations written through it are kept. The
 * Deployment controller records a Deployment's revision
 * (`deployment.<domain>/revision`) this way, and managedFields show that
 * annotation owned through the `status` subresource, as on a real cluster.
 */

import { statusStrategy } from '../../generic/strategy';
import type { RestStorage } from '../../rest/capabilities';
import type { KindHooks } from '../../rest/strategy';
import type { StoredKindContext } from '../types';

export function statusKeepingAnnotations(hooks: KindHooks): (ctx: StoredKindContext) => RestStorage {
  return (ctx) => {
    const status = ctx.store.withStrategy(statusStrategy(ctx.rt, hooks, ['annotations']));
    return {
      get: (scope, name, options) => status.get(scope, name, options),
      update: (scope, name, objInfo, options) => status.update(scope, name, objInfo, options),
    };
  };
}
