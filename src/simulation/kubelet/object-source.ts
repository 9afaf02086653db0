/**
 * What a node agent reads from the API to set up a pod's containers, as
 * the node identity (so the Node authorizer decides, as on a cluster): the
 * ConfigMaps and Secrets the pod references, the Services whose variables
 * go into its environment, and service-account tokens for its projected
 * volumes (TokenRequest bound to the pod). The Services come from a watch
 * started at the first pod that needs them, as the kubelet's service
 * informer: a list per pod start made 1,000 pods over 50 nodes send two
 * Service lists each while they started.
 */

import type { KubeObject } from '../../api/meta';
import type { ApiClient } from '../../client/client';
import { isNotFound } from '../../client/api-errors';
import { Informer } from '../../client/informer';
import { resourcePath } from '../../client/paths';

export interface ObjectSource {
  /** The ConfigMap or Secret, or undefined when there is none. */
  get(resource: 'configmaps' | 'secrets', namespace: string, name: string): Promise<KubeObject | undefined>;
  /** The Services of a namespace (for the service environment variables). */
  services(namespace: string): Promise<KubeObject[]>;
  /** A token for the pod's service account, bound to the pod. */
  token(request: {
    namespace: string;
    serviceAccount: string;
    podName: string;
    podUID: string;
    audience?: string;
    expirationSeconds?: number;
  }): Promise<string>;
  /** Stops the watch of Services (the agent stopped); the next pod that needs them starts it again. */
  close(): void;
}

/** `authenticationGroup`: the profile's name of `authentication.k8s.io`, the TokenRequest's group. */
export function apiObjectSource(client: ApiClient, authenticationGroup: string): ObjectSource {
  let services: Informer | undefined;
  return {
    async get(resource, namespace, name) {
      try {
        return await client.get({ group: '', version: 'v1', resource, namespace, name });
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    async services(namespace) {
      if (services === undefined) {
        services = new Informer(client, { group: '', version: 'v1', resource: 'services' }, {});
        services.start();
      }
      const informer = services;
      await informer.synced;
      // In the order a list answers (by name), so the environment reads the same on every start.
      return [...informer.cache.values()]
        .filter((s) => s.metadata?.namespace === namespace)
        .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
    },
    close() {
      services?.stop();
      services = undefined;
    },
    async token(r) {
      const path = resourcePath({
        group: '',
        version: 'v1',
        resource: 'serviceaccounts',
        namespace: r.namespace,
        name: r.serviceAccount,
        subresource: 'token',
      });
      const { body: answer } = await client.send<KubeObject>('POST', path, {
        body: {
          apiVersion: `${authenticationGroup}/v1`,
          kind: 'TokenRequest',
          spec: {
            ...(r.audience !== undefined && r.audience !== '' ? { audiences: [r.audience] } : {}),
            expirationSeconds: r.expirationSeconds ?? 3607,
            boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: r.podName, uid: r.podUID },
          },
        },
      });
      return ((answer.status ?? {}) as { token?: string }).token ?? '';
    },
  };
}
