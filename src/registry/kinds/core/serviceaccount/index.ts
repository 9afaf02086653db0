/** ServiceAccount: its `token` subresource (TokenRequest, stored nowhere; see token.ts). */

import type { KindRegistration } from '../../types';
import { lazyNamedCreater, tokenRequestKind } from '../lazy-subresources';

export const serviceAccount: KindRegistration = {
  subresources: {
    // Loaded with the first token request (lazy-subresources.ts), answering as token.ts does.
    token: lazyNamedCreater(tokenRequestKind, (m, ctx) => m.tokenRequestStorage(ctx)),
  },
};
