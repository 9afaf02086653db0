/** LocalSubjectAccessReview: never stored; its whole storage is the review (see storage.ts). */

import type { KindRegistration } from '../../types';
import { LocalSubjectAccessReviewStorage } from './storage';

export const localSubjectAccessReview: KindRegistration = {
  storage: (ctx) => new LocalSubjectAccessReviewStorage(ctx.rt, ctx.services.authorizer),
};
