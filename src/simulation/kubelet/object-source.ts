/**
 * What a node agent reads from the API to set up a pod's containers, as
 * the node identity (so the Node authorizer decides, as on a cluster): the
 * ConfigMaps and Secrets the pod references, the Services whose variables
 * go into its environment, and service-account tokens for its projected
 * volumes (TokenRequest bound to the pod).
 */

import type { KubeObject, KubeList } from '../../api/meta';
import type { ApiClient } from '../../client/client';
import { isNotFound } from '../../client/api-errors';
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
}

/** `authenticationGroup`: the profile's name of `authentication.k8s.io`, the TokenRequest's group. */
export function apiObjectSource(client: ApiClient, authenticationGroup: string): ObjectSource {
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
      const list: KubeList = await client.list({ group: '', version: 'v1', resource: 'services', namespace });
      return list.items;
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
