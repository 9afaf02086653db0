/** scheduling/v1 defaults: a PriorityClass preempts lower priorities. */

import { ptr, type Defaulter } from './helpers';

export const schedulingDefaults: Record<string, Defaulter> = {
  'api.scheduling.v1.PriorityClass': (pc) => ptr(pc, 'preemptionPolicy', 'PreemptLowerPriority'),
};
