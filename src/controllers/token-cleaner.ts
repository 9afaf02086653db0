/**
 * The token cleaner, as the controller manager's `tokencleaner` does it:
 * it watches the bootstrap token Secrets of the system namespace and
 * deletes each once its `expiration` has passed (an unparseable expiration
 * counts as passed), with the Secret's uid as a precondition so a token
 * created again under the same name is left alone. A token that expires
 * later is looked at again at its expiry. Time is the context's clock, so
 * tests move it instead of waiting.
 */

import type { KubeObject } from '../api/meta';
import { ApiError } from '../client/errors';
import type { ResourceRef } from '../client/paths';
import { bootstrapTokenExpiry, bootstrapTokenSecretType } from '../machinery/bootstrap-token';
import { Informer, objectKey } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

/** The longest a timer waits; a far expiry is looked at again then (timers cap at about 24.8 days). */
const maxRequeueMs = 24 * 60 * 60 * 1000;

export function tokenCleaner(ctx: ControllerContext): Controller {
  const namespace = ctx.profile.systemNamespace;
  const secretsRef: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespace };
  const type = bootstrapTokenSecretType(ctx.profile);

  const reconcile = async (key: string): Promise<{ requeueAfterMs?: number } | void> => {
    await secrets.synced;
    const secret = secrets.cache.get(key);
    if (secret === undefined || secret['type'] !== type) return;
    const expiry = bootstrapTokenExpiry(secret, ctx.now().getTime());
    if (!expiry.expired)
      return expiry.ttlMs === undefined
        ? undefined
        : { requeueAfterMs: Math.min(expiry.ttlMs, maxRequeueMs) };
    const name = secret.metadata?.name ?? '';
    const uid = secret.metadata?.uid;
    try {
      await ctx.client.delete(
        { ...secretsRef, name },
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          ...(uid !== undefined ? { preconditions: { uid } } : {}),
        },
      );
    } catch (e) {
      // Gone already, or replaced by a new Secret of the same name (its own events bring it here).
      if (e instanceof ApiError && (e.code === 404 || e.code === 409)) return;
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: KubeObject): void => {
    if (obj['type'] === type) queue.add(objectKey(obj));
  };
  const secrets = new Informer(ctx.client, secretsRef, {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
  });
  return {
    name: 'token-cleaner',
    start: () => secrets.start(),
    stop: () => {
      secrets.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
