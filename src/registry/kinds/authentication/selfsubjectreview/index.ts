/** SelfSubjectReview (v1beta1 and v1alpha1 where enabled): never stored; its whole storage is the review (see storage.ts). */

import type { KindRegistration } from '../../types';
import { SelfSubjectReviewStorage } from './storage';

export const selfSubjectReview: KindRegistration = {
  storage: (ctx) => new SelfSubjectReviewStorage(ctx.rt),
};
