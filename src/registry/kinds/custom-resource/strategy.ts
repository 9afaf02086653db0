/**
 * The strategy of custom resources: each is validated against its
 * version's schema and rules (the CRD's facts), and none can be created
 * while its CRD is terminating. Validation is asynchronous so that a
 * schema with rules or patterns loads the CEL library first.
 */

import { celLibrary } from '../../../cel/engine';
import { StatusError } from '../../../machinery/errors';
import type { KindHooks, StrategyContext } from '../../rest/strategy';
import type { ResourceType } from '../../resource-type';

const hooksByType = new WeakMap<ResourceType, KindHooks>();

const celEnabled = (ctx: StrategyContext): boolean =>
  ctx.featureGates?.CustomResourceValidationExpressions !== false;

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
    // With CustomResourceValidationExpressions off the real validator runs no CEL rule.
    async validateAsync(obj, old, ctx) {
      if (facts === undefined) return [];
      const cel = celEnabled(ctx);
      if (facts.needsLibrary(cel)) await celLibrary.load();
      return facts.validate(obj, old, cel);
    },
  };
  hooksByType.set(rt, hooks);
  return hooks;
}
