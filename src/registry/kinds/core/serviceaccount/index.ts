/** ServiceAccount: its `token` subresource (TokenRequest, stored nowhere; see token.ts). */

import type { KindRegistration } from '../../types';
import { tokenRequestStorage } from './token';

export const serviceAccount: KindRegistration = {
  subresources: {
    token: tokenRequestStorage,
  },
};
