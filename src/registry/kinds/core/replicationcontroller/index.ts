/**
 * ReplicationController: the real validation of its map selector (defaulted
 * from the template's labels) against the template, and of its pods'
 * restart policy.
 */

import type { KindHooks } from '../../../rest/strategy';
import { withWorkloadChecks } from '../../../validation/workload-checks';
import type { KindRegistration } from '../../types';

const hooks: KindHooks = {
  validateAsync: withWorkloadChecks((checks, obj) => checks.mapSelectorAndTemplateErrors(obj)),
};

export const replicationController: KindRegistration = { hooks };
