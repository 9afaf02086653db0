/**
 * Deployment: the real validation of its selector and template (a
 * selector that matches the template's labels, cannot be empty and cannot
 * change), of its strategy (no `rollingUpdate` with Recreate) and of its
 * progress deadline (longer than `minReadySeconds`); an update that
 * changes annotations bumps the generation as a spec change does (they are
 * copied to the ReplicaSets); `status` keeps annotations.
 */

import type { KubeObject } from '../../../../api/meta';
import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { deepEqual } from '../../../../machinery/json';
import type { KindHooks } from '../../../rest/strategy';
import { withWorkloadChecks, type Checks } from '../../../validation/workload-checks';
import type { KindRegistration } from '../../types';
import { statusKeepingAnnotations } from '../status-with-annotations';

type Obj = Record<string, unknown>;

function specErrors(checks: Checks, obj: KubeObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Obj;
  const errors = checks.selectorAndTemplateErrors(obj, { kindWord: 'deployment', kindName: 'ReplicaSet' });
  const strategy = (spec.strategy ?? {}) as Obj;
  if (strategy.type === 'Recreate' && strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null)
    errors.push(
      fieldError.forbidden(
        'spec.strategy.rollingUpdate',
        "may not be specified when strategy `type` is 'Recreate'",
      ),
    );
  const deadline = spec.progressDeadlineSeconds;
  const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
  if (typeof deadline === 'number' && deadline <= minReady)
    errors.push(
      fieldError.invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'),
    );
  return errors;
}

const hooks: KindHooks = {
  validateAsync: withWorkloadChecks((checks, obj, old) =>
    old === undefined
      ? specErrors(checks, obj)
      : [...specErrors(checks, obj), ...checks.immutableSelectorErrors(obj, old)],
  ),
  prepareForUpdate(obj, old) {
    const m = obj.metadata ?? {};
    const om = old.metadata ?? {};
    if (m.generation === om.generation && !deepEqual(m.annotations ?? {}, om.annotations ?? {}))
      m.generation = (om.generation ?? 0) + 1;
  },
};

export const deployment: KindRegistration = {
  hooks,
  subresources: { status: statusKeepingAnnotations(hooks) },
};
