/**
 * The token cleaner, as the controller manager's `tokencleaner` does it:
 * it watches the bootstrap token Secrets of the system namespace and
 * deletes each once its `expiration` has passed (an unparseable expiration
 * counts as passed), with the Secret's uid as a precondition so a token
 * created again under the same name is left alone. A token that expires
 * later is remembered with its expiry, and the expiries are compared with
 * the context's clock every second (as the request cleaner does), so a
 * test that moves an injected clock sees the token go within a second.
 */

import type { KubeObject } from '../api/meta';
import type { ResourceRef } from '../client/paths';
import { bootstrapTokenExpiry, bootstrapTokenSecretType } from '../machinery/bootstrap-token';
import { isConflict, isNotFound } from './api-errors';
import { Informer, objectKey } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

export interface TokenCleanerOptions {
  /** How often the expiries are compared with the clock; default one second. */
  tickMs?: number;
}

export function tokenCleaner(ctx: ControllerContext, options: TokenCleanerOptions = {}): Controller {
  const namespace = ctx.profile.systemNamespace;
  const secretsRef: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespace };
  const type = bootstrapTokenSecretType(ctx.profile);
  const expiries = new Map<string, number>();

  const reconcile = async (key: string): Promise<void> => {
    await secrets.synced;
    expiries.delete(key);
    const secret = secrets.cache.get(key);
    if (secret === undefined || secret['type'] !== type) return;
    const now = ctx.now().getTime();
    const expiry = bootstrapTokenExpiry(secret, now);
    if (!expiry.expired) {
      if (expiry.ttlMs !== undefined) expiries.set(key, now + expiry.ttlMs);
      return;
    }
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
      if (isNotFound(e) || isConflict(e)) return;
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueue = (obj: KubeObject): void => {
    if (obj['type'] === type) queue.add(objectKey(obj));
  };
  const check = (): void => {
    const now = ctx.now().getTime();
    for (const [key, at] of expiries) {
      if (now < at) continue;
      // One wake-up per expiry; the reconcile remembers it again if the token is still there.
      expiries.delete(key);
      queue.add(key);
    }
  };
  const secrets = new Informer(ctx.client, secretsRef, {
    add: enqueue,
    update: (_old, obj) => enqueue(obj),
    delete: (obj) => expiries.delete(objectKey(obj)),
  });
  let timer: ReturnType<typeof setInterval> | undefined;
  return {
    name: 'token-cleaner',
    start: () => {
      secrets.start();
      timer = setInterval(check, options.tickMs ?? 1000);
    },
    stop: () => {
      if (timer !== undefined) clearInterval(timer);
      secrets.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
  };
}
