/**
 * ComponentStatus: read-only (get and list) and never stored. A real
 * server computes each one on request by probing its scheduler, its
 * controller manager (on their default secure ports of 127.0.0.1) and each
 * etcd member. This server's store is its only etcd member, healthy while
 * it answers; the scheduler and controller manager are not separate
 * processes listening there, so they report the real server's answer for
 * components it cannot reach. The deprecation warning comes with the
 * resource type (`deprecation.ts`).
 */

import type { KubeObject } from '../../../../api/meta';
import { StatusError } from '../../../../machinery/errors';
import type { Getter, Lister } from '../../../rest/capabilities';
import type { KindRegistration, KindStorageContext } from '../../types';

/** The components a v1.27 server probes, with the address each is probed at. */
const probed: { name: string; url?: string }[] = [
  { name: 'scheduler', url: 'https://127.0.0.1:10259/healthz' },
  { name: 'controller-manager', url: 'https://127.0.0.1:10257/healthz' },
  { name: 'etcd-0' },
];

interface Condition {
  type: 'Healthy';
  status: 'True' | 'False' | 'Unknown';
  message?: string;
  error?: string;
}

function statusObject(name: string, condition: Condition): KubeObject {
  // A computed object: no creation time (Go's zero time is written as null), no uid, no version.
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null } as KubeObject['metadata'],
    conditions: [condition],
  };
}

async function probe(ctx: KindStorageContext, name: string, url: string | undefined): Promise<KubeObject> {
  if (url !== undefined) {
    // The real HTTP prober turns a refused connection into a failure whose message is Go's error text.
    const host = url.replace(/^https:\/\//, '').replace(/\/.*$/, '');
    return statusObject(name, {
      type: 'Healthy',
      status: 'False',
      message: `Get ${JSON.stringify(url)}: dial tcp ${host}: connect: connection refused`,
    });
  }
  try {
    await ctx.deps.storage.currentRevision();
    return statusObject(name, { type: 'Healthy', status: 'True', message: '{"health":"true","reason":""}' });
  } catch (e) {
    return statusObject(name, {
      type: 'Healthy',
      status: 'Unknown',
      error: e instanceof Error ? e.message : String(e),
    });
  }
}

export const componentStatus: KindRegistration = {
  storage: (ctx): Getter & Lister => ({
    get: async (_scope, name) => {
      const component = probed.find((c) => c.name === name);
      // The real registry answers an unknown name with a plain error, which the server reports as a 500.
      if (component === undefined) throw new StatusError(500, undefined, `Component not found: ${name}`);
      return probe(ctx, component.name, component.url);
    },
    list: async (_scope, request) => {
      const items = await Promise.all(probed.map((c) => probe(ctx, c.name, c.url)));
      const predicate = request.predicate;
      return {
        items: predicate === undefined ? items : items.filter((o) => predicate(o)),
        revision: await ctx.deps.storage.currentRevision(),
      };
    },
  }),
};
