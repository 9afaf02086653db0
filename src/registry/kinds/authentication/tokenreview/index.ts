/** TokenReview: never stored; its whole storage is the review (see storage.ts), loaded with the first one (reviews.ts). */

import type { KindRegistration } from '../../types';
import { reviewStorage } from '../../reviews';

export const tokenReview: KindRegistration = {
  storage: (ctx) => {
    const authenticator = ctx.services.tokenAuthenticator;
    return reviewStorage((m) => new m.TokenReviewStorage(ctx.rt, authenticator));
  },
};
