/** SubjectAccessReview: never stored; its whole storage is the review (see storage.ts). */

import type { KindRegistration } from '../../types';
import { SubjectAccessReviewStorage } from './storage';

export const subjectAccessReview: KindRegistration = {
  storage: (ctx) => new SubjectAccessReviewStorage(ctx.rt, ctx.services.authorizer),
};
