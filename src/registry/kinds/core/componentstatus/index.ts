/**
 * ComponentStatus: read-only (get and list) and never stored. A real
 * server computes it from probes of its scheduler, controller manager and
 * etcd members; this server has none of those as separate components, so
 * the list is empty and every name is NotFound.
 */

import { notFound } from '../../../../machinery/errors';
import type { Getter, Lister } from '../../../rest/capabilities';
import type { KindRegistration } from '../../types';

export const componentStatus: KindRegistration = {
  storage: (ctx): Getter & Lister => ({
    get: async (_scope, name) => {
      throw notFound({ group: '', resource: 'componentstatuses' }, name);
    },
    list: async () => ({ items: [], revision: await ctx.deps.storage.currentRevision() }),
  }),
};
