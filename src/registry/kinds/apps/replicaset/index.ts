/**
 * ReplicaSet: the real validation of its selector and template (a
 * selector that matches the template's labels, cannot be empty — the real
 * message says "for deployment" here too — and cannot change; pods that
 * restart `Always`).
 */

import type { KindHooks } from '../../../rest/strategy';
import { withWorkloadChecks } from '../../../validation/workload-checks';
import type { KindRegistration } from '../../types';

const rules = { kindWord: 'deployment', kindName: 'ReplicaSet' };

const hooks: KindHooks = {
  validateAsync: withWorkloadChecks((checks, obj, old) =>
    old === undefined
      ? checks.selectorAndTemplateErrors(obj, rules)
      : [...checks.selectorAndTemplateErrors(obj, rules), ...checks.immutableSelectorErrors(obj, old)],
  ),
};

export const replicaSet: KindRegistration = { hooks };
