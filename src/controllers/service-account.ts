/**
 * The serviceaccount controller of the controller manager: every active
 * namespace has a `default` ServiceAccount. A namespace that appears or
 * changes, or a `default` account that is deleted, queues its namespace;
 * the account is created again if missing. Terminating namespaces are left
 * alone (the server refuses new content in them anyway). As on a real
 * cluster the informers list and watch with the controller manager's own
 * credentials while the writes go out as the controller's service account.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { ResourceRef } from '../client/paths';
import { isNamespaceTerminating, isAlreadyExists } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const namespacesRef: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const accountsRef: ResourceRef = { group: '', version: 'v1', resource: 'serviceaccounts' };

/** The accounts the controller keeps in every namespace (upstream's default `ServiceAccounts` option). */
const accountsToEnsure = ['default'];

/**
 * @param informerClient the client the informers list and watch with: the
 *   controller manager's shared informers run with its own credentials, the
 *   controller's role only allows creating accounts.
 */
export function serviceAccountController(
  ctx: ControllerContext,
  informerClient: ApiClient,
): Controller & { firstPass(): Promise<void> } {
  const reconcile = async (namespace: string): Promise<void> => {
    await Promise.all([namespaces.synced, accounts.synced]);
    const ns = namespaces.cache.get(namespace);
    if (ns === undefined) return;
    if ((ns.status as { phase?: string } | undefined)?.phase !== 'Active') return;
    for (const name of accountsToEnsure) {
      if (accounts.cache.has(`${namespace}/${name}`)) continue;
      try {
        await ctx.client.create(
          { ...accountsRef, namespace },
          { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } },
        );
      } catch (e) {
        // The cache lagging behind our own create, or a namespace going away: nothing to do.
        if (isAlreadyExists(e) || isNamespaceTerminating(e)) continue;
        throw e;
      }
    }
  };
  const queue = new WorkQueue(reconcile);
  const enqueueNamespace = (ns: KubeObject): void => queue.add(ns.metadata?.name ?? '');
  const namespaces = new Informer(informerClient, namespacesRef, {
    add: enqueueNamespace,
    update: (_old, ns) => enqueueNamespace(ns),
  });
  const accounts = new Informer(informerClient, accountsRef, {
    delete: (sa) => {
      if (accountsToEnsure.includes(sa.metadata?.name ?? '')) queue.add(sa.metadata?.namespace ?? '');
    },
  });
  return {
    name: 'serviceaccount',
    start: () => {
      namespaces.start();
      accounts.start();
    },
    stop: () => {
      namespaces.stop();
      accounts.stop();
      queue.stop();
    },
    idle: () => queue.idle(),
    /** Resolves once both informers have listed and every namespace they found has been reconciled. */
    async firstPass() {
      await Promise.all([namespaces.synced, accounts.synced]);
      await queue.idle();
    },
  };
}
