/**
 * ReplicationController: the real validation of its map selector (defaulted
 * from the template's labels) against the template, and of its pods'
 * restart policy.
 */

import type { KindHooks } from '../../../rest/strategy';
import { mapSelectorAndTemplateErrors } from '../../../validation/workload';
import type { KindRegistration } from '../../types';

const hooks: KindHooks = {
  validate: (obj) => mapSelectorAndTemplateErrors(obj),
  validateUpdate: (obj) => mapSelectorAndTemplateErrors(obj),
};

export const replicationController: KindRegistration = { hooks };
