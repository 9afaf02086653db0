/** ServiceAccount: its `token` subresource (TokenRequest, stored nowhere; see token.ts). */

import type { KindRegistration } from '../../types';
import { lazyNamedCreater } from '../lazy-subresources';

export const serviceAccount: KindRegistration = {
  subresources: {
    // Loaded with the first token request (lazy-subresources.ts); its kind is known at once, as token.ts names it.
    token: lazyNamedCreater(
      (ctx) => {
        const sub = ctx.rt.subresources.get('token');
        return {
          group: sub?.group ?? ctx.deps.profile.suffixed('authentication'),
          version: sub?.version ?? 'v1',
          kind: 'TokenRequest',
        };
      },
      (m, ctx) => m.tokenRequestStorage(ctx),
    ),
  },
};
