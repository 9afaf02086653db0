/** LocalSubjectAccessReview: never stored; its whole storage is the review (see storage.ts), loaded with the first one (reviews.ts). */

import type { KindRegistration } from '../../types';
import { reviewStorage } from '../../reviews';

export const localSubjectAccessReview: KindRegistration = {
  storage: (ctx) => {
    const authorizer = ctx.services.authorizer;
    return reviewStorage((m) => new m.LocalSubjectAccessReviewStorage(ctx.rt, authorizer));
  },
};
