/** SelfSubjectReview (v1beta1 and v1alpha1 where enabled): never stored; its whole storage is the review (see storage.ts), loaded with the first one (reviews.ts). */

import type { KindRegistration } from '../../types';
import { reviewStorage } from '../../reviews';

export const selfSubjectReview: KindRegistration = {
  storage: (ctx) => reviewStorage((m) => new m.SelfSubjectReviewStorage(ctx.rt)),
};
