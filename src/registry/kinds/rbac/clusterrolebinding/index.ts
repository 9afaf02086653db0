/** ClusterRoleBinding: the generic store behind the real escalation checks (`../binding-storage.ts`). */

import type { KindRegistration } from '../../types';
import { bindingHooks, bindingStorage } from '../binding-storage';

export const clusterRoleBinding: KindRegistration = {
  hooks: bindingHooks,
  main: (ctx) => bindingStorage(ctx, true),
};
