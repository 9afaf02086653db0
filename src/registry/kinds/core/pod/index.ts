/**
 * Pod: its status (which may change labels and annotations, `status.ts`),
 * ephemeralcontainers; eviction
 * and binding (stored nowhere: they change the pod); log, exec, attach,
 * portforward and proxy, which reach the node agent or the pod's network
 * that the sandbox does not have (see `node-agent.ts`).
 */

import type { KindRegistration } from '../../types';
import { attachStorage } from './attach';
import { bindingStorage } from './binding';
import { ephemeralContainersStorage } from './ephemeral-containers';
import { evictionStorage } from './eviction-storage';
import { execStorage } from './exec';
import { logStorage } from './log';
import { portForwardStorage } from './portforward';
import { podProxyStorage } from './proxy';
import { podQOSClass } from './qos';
import { podStatusStorage } from './status';
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
    binding: bindingStorage,
    log: logStorage,
    exec: execStorage,
    attach: attachStorage,
    portforward: portForwardStorage,
    proxy: podProxyStorage,
  },
};
