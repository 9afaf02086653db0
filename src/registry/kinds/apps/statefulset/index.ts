/**
 * StatefulSet: the real validation of its selector and template (a
 * selector that matches the template's labels and cannot be empty; pods
 * that restart `Always`), and of updates: only `replicas`, `ordinals`,
 * `template`, `updateStrategy`, `persistentVolumeClaimRetentionPolicy` and
 * `minReadySeconds` may change.
 */

import type { KubeObject } from '../../../../api/meta';
import { fieldError, type FieldError } from '../../../../machinery/field-errors';
import { deepEqual } from '../../../../machinery/json';
import type { KindHooks } from '../../../rest/strategy';
import { withWorkloadChecks } from '../../../validation/workload-checks';
import type { KindRegistration } from '../../types';

const rules = { kindWord: 'statefulset', kindName: 'StatefulSet' };
const mutable = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

function updateErrors(obj: KubeObject, old: KubeObject): FieldError[] {
  const strip = (spec: unknown): Record<string, unknown> => {
    const out = { ...((spec ?? {}) as Record<string, unknown>) };
    for (const k of mutable) delete out[k];
    return out;
  };
  if (deepEqual(strip(obj.spec), strip(old.spec))) return [];
  return [
    fieldError.forbidden(
      'spec',
      "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ),
  ];
}

const hooks: KindHooks = {
  validateAsync: withWorkloadChecks((checks, obj, old) =>
    old === undefined
      ? checks.selectorAndTemplateErrors(obj, rules)
      : [...checks.selectorAndTemplateErrors(obj, rules), ...updateErrors(obj, old)],
  ),
};

export const statefulSet: KindRegistration = { hooks };
