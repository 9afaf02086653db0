/**
 * The strategy of custom resources: each is validated against its
 * version's schema and rules (the CRD's facts), and none can be created
 * while its CRD is terminating.
 */

import { StatusError } from '../../../machinery/errors';
import type { KindHooks } from '../../rest/strategy';
import type { ResourceType } from '../../resource-type';

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
