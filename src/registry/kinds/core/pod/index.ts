/**
 * Pod: its status (which may change labels and annotations, `status.ts`),
 * ephemeralcontainers; eviction
 * and binding (stored nowhere: they change the pod); log, exec, attach,
 * portforward and proxy, which reach the node agent or the pod's network
 * that the sandbox does not have (see `node-agent.ts`).
 */

import type { KindRegistration } from '../../types';
import { ephemeralContainersStorage } from './ephemeral-containers';
import { evictionStorage } from './eviction-storage';
import { podQOSClass } from './qos';
import { podStatusStorage } from './status';
import {
  bindingKind,
  lazyConnecter,
  lazyNamedCreater,
  logMethods,
  proxyMethods,
  streamMethods,
} from '../lazy-subresources';
import type { KindHooks } from '../../../rest/strategy';

const hooks: KindHooks = {
  prepareForCreate(obj) {
    const status = obj.status as Record<string, unknown> | undefined;
    if (status !== undefined) status.qosClass = podQOSClass(obj);
  },
};

export const pod: KindRegistration = {
  hooks,
  subresources: {
    status: podStatusStorage(hooks),
    ephemeralcontainers: ephemeralContainersStorage,
    eviction: evictionStorage,
    // Loaded with their first request; the methods and kind are the ones their storages answer (lazy-subresources.ts).
    binding: lazyNamedCreater(
      () => bindingKind,
      (m, ctx) => m.bindingStorage(ctx),
    ),
    log: lazyConnecter(logMethods, (m, ctx) => m.logStorage(ctx)),
    exec: lazyConnecter(streamMethods, (m, ctx) => m.execStorage(ctx)),
    attach: lazyConnecter(streamMethods, (m, ctx) => m.attachStorage(ctx)),
    portforward: lazyConnecter(streamMethods, (m, ctx) => m.portForwardStorage(ctx)),
    proxy: lazyConnecter(proxyMethods, (m, ctx) => m.podProxyStorage(ctx)),
  },
};
