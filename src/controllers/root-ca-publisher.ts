/**
 * The root-ca-cert-publisher of the controller manager: every namespace
 * holds the ConfigMap `orch-root-ca.crt` (upstream `kube-root-ca.crt`) whose
 * `ca.crt` is the cluster CA bundle, so that workloads can verify the API
 * server; projected service-account volumes mount it. A namespace that
 * appears or turns active, or a change to or deletion of that ConfigMap,
 * queues the namespace; the ConfigMap is created again, or its data and
 * description annotation put back. The informers list and watch with the
 * controller manager's own credentials, the writes go out as the
 * publisher's service account.
 */

import type { KubeObject } from '../api/meta';
import type { ApiClient } from '../client/client';
import type { ResourceRef } from '../client/paths';
import type { NamingProfile } from '../machinery/naming';
import { isConflict, isNamespaceTerminating, isNotFound } from './api-errors';
import { Informer } from './informer';
import type { Controller, ControllerContext } from './types';
import { WorkQueue } from './work-queue';

const namespacesRef: ResourceRef = { group: '', version: 'v1', resource: 'namespaces' };
const configMapsRef: ResourceRef = { group: '', version: 'v1', resource: 'configmaps' };

/** Where the publisher gets the bundle it publishes (the controller manager's `--root-ca-file`). */
export interface RootCASource {
  /** May wait: the server creates its cluster CA when first needed. */
  caPEM(): string | Promise<string>;
}

/** Upstream's description, with the product's own names under a renaming profile. */
function description(profile: NamingProfile): string {
  const [apiserver, service, product] =
    profile.word === 'orch'
      ? ['orch-apiserver', 'orch.default.svc', 'Orch']
      : ['kube-apiserver', 'kubernetes.default.svc', 'Kubernetes'];
  return (
    `Contains a CA bundle that can be used to verify the ${apiserver} when using internal endpoints such as ` +
    `the internal service IP or ${service}. No other usage is guaranteed across distributions of ${product} clusters.`
  );
}

function sameData(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((k) => a?.[k] === b[k]);
}

/**
 * @param informerClient the client the informers list and watch with (the
 *   controller manager's shared informers run with its own credentials; the
 *   publisher's role only allows creating and updating ConfigMaps).
 */
export function rootCAPublisher(
  ctx: ControllerContext,
  informerClient: ApiClient,
  source: RootCASource,
): Controller {
  const name = ctx.profile.rootCAConfigMap;
  const annotation = ctx.profile.prefixed('description');

  const reconcile = async (namespace: string): Promise<{ requeueAfterMs?: number } | void> => {
    await Promise.all([namespaces.synced, configMaps.synced]);
    const data = { 'ca.crt': await source.caPEM() };
    const existing = configMaps.cache.get(`${namespace}/${name}`);
    if (existing === undefined) {
      try {
        await ctx.client.create(
          { ...configMapsRef, namespace },
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name, namespace, annotations: { [annotation]: description(ctx.profile) } },
            data,
          },
        );
      } catch (e) {
        // Like upstream, no retry into a namespace that is gone or going; an AlreadyExists is retried (the
        // cache lags behind) and then compared like any other existing ConfigMap.
        if (isNotFound(e) || isNamespaceTerminating(e)) return;
        throw e;
      }
      return;
    }
    const annotations = existing.metadata?.annotations ?? {};
    if (
      sameData(existing['data'] as Record<string, string> | undefined, data) &&
      (annotations[annotation] ?? '') !== ''
    )
      return;
    try {
      await ctx.client.update(
        { ...configMapsRef, namespace, name },
        {
          ...existing,
          metadata: {
            ...existing.metadata,
            annotations: { ...annotations, [annotation]: description(ctx.profile) },
          },
          data,
        },
      );
    } catch (e) {
      // A newer version is on its way through the informer, which queues the namespace again.
      if (isConflict(e) || isNotFound(e)) return;
      throw e;
    }
  };

  const queue = new WorkQueue(reconcile);
  const enqueueConfigMap = (cm: KubeObject): void => {
    if (cm.metadata?.name === name) queue.add(cm.metadata.namespace ?? '');
  };
  const namespaces = new Informer(informerClient, namespacesRef, {
    add: (ns) => queue.add(ns.metadata?.name ?? ''),
    update: (_old, ns) => {
      if ((ns.status as { phase?: string } | undefined)?.phase === 'Active')
        queue.add(ns.metadata?.name ?? '');
    },
  });
  // Only the published ConfigMaps, by field selector: the cache holds one per namespace, not every ConfigMap.
  const configMaps = new Informer(
    informerClient,
    configMapsRef,
    { update: (_old, cm) => enqueueConfigMap(cm), delete: enqueueConfigMap },
    { query: { fieldSelector: `metadata.name=${name}` } },
  );
  return {
    name: 'root-ca-cert-publisher',
    start: () => {
      namespaces.start();
      configMaps.start();
    },
    stop: () => {
      namespaces.stop();
      configMaps.stop();
      queue.stop();
    },
    idle: async () => {
      await Promise.all([namespaces.synced, configMaps.synced]);
      await queue.idle();
    },
  };
}
