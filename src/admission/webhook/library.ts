/**
 * The admission webhooks' dispatch, loaded when the first webhook
 * configuration is there to call (see machinery/lazy-module.ts).
 */

import { LazyModule } from '../../machinery/lazy-module';
import type * as WebhookDispatch from './webhook-dispatch.lazy';

export const webhookDispatch = new LazyModule<typeof WebhookDispatch>(
  'webhook-dispatch',
  () => import('./webhook-dispatch.lazy'),
);
