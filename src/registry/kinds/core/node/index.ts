/**
 * Node: its `proxy` subresource (status is the generic one). The node
 * agent connection that pod subresources use lives here too
 * (`connection.ts`).
 */

import type { KindRegistration } from '../../types';
import { lazyConnecter, proxyMethods } from '../lazy-subresources';

export const node: KindRegistration = {
  subresources: { proxy: lazyConnecter(proxyMethods, (m, ctx) => m.nodeProxyStorage(ctx)) },
};
