/** SelfSubjectRulesReview: never stored; its whole storage is the review (see storage.ts). */

import type { KindRegistration } from '../../types';
import { SelfSubjectRulesReviewStorage } from './storage';

export const selfSubjectRulesReview: KindRegistration = {
  storage: (ctx) => new SelfSubjectRulesReviewStorage(ctx.rt, ctx.services.authorizer),
};
