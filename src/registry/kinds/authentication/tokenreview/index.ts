/** TokenReview: never stored; its whole storage is the review (see storage.ts). */

import type { KindRegistration } from '../../types';
import { TokenReviewStorage } from './storage';

export const tokenReview: KindRegistration = {
  storage: (ctx) => new TokenReviewStorage(ctx.rt, ctx.services.tokenAuthenticator),
};
