/** Service: its `proxy` subresource (status is the generic one). */

import type { KindRegistration } from '../../types';
import { serviceProxyStorage } from './proxy';

export const service: KindRegistration = {
  subresources: { proxy: serviceProxyStorage },
};
