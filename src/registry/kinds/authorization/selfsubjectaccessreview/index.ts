/** SelfSubjectAccessReview: never stored; its whole storage is the review (see storage.ts). */

import type { KindRegistration } from '../../types';
import { SelfSubjectAccessReviewStorage } from './storage';

export const selfSubjectAccessReview: KindRegistration = {
  storage: (ctx) => new SelfSubjectAccessReviewStorage(ctx.rt, ctx.services.authorizer),
};
