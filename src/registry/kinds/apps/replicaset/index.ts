/**
 * ReplicaSet: the real validation of its selector and template (a
 * selector that matches the template's labels, cannot be empty — the real
 * message says "for deployment" here too — and cannot change; pods that
 * restart `Always`).
 */

import type { KindHooks } from '../../../rest/strategy';
import { immutableSelectorErrors, selectorAndTemplateErrors } from '../../../validation/workload';
import type { KindRegistration } from '../../types';

const rules = { kindWord: 'deployment', kindName: 'ReplicaSet' };

const hooks: KindHooks = {
  validate: (obj) => selectorAndTemplateErrors(obj, rules),
  validateUpdate: (obj, old) => [
    ...selectorAndTemplateErrors(obj, rules),
    ...immutableSelectorErrors(obj, old),
  ],
};

export const replicaSet: KindRegistration = { hooks };
