/** Role: the generic store behind the real escalation checks (`../role-storage.ts`). */

import type { KindRegistration } from '../../types';
import { roleStorage } from '../role-storage';

export const role: KindRegistration = {
  main: (ctx) => roleStorage(ctx, false),
};
