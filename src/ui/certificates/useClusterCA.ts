/**
 * The cluster CA's certificate, as a client in the cluster finds it: the
 * root-CA ConfigMap every namespace carries (`ca.crt`), or else the public
 * `cluster-info` ConfigMap's client configuration
 * (`certificate-authority-data`), which anyone may read. Read as the
 * current identity, like everything else the UI reads.
 */

import type { KubeObject } from '../../api/meta';
import { ApiError } from '../../client/index';
import { useClient } from '../client-context';
import { useAsync, type AsyncResult } from '../hooks/useAsync';
import { useIdentityVersion } from '../identity/IdentityContext';
import { decodeBase64Text } from '../../machinery/base64-text';
import type { ApiNames } from './names';

export interface ClusterCA {
  pem: string;
  /** Where it was read, e.g. `ConfigMap default/orch-root-ca.crt`. */
  source: string;
}

type ConfigMap = KubeObject & { data?: Record<string, string> };

export function useClusterCA(names: ApiNames, namespace = 'default'): AsyncResult<ClusterCA> {
  const client = useClient();
  const version = useIdentityVersion();
  return useAsync(async () => {
    const failures: unknown[] = [];
    try {
      const cm = await client.get<ConfigMap>({
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace,
        name: names.rootCAConfigMap,
      });
      const pem = cm.data?.['ca.crt'];
      if (pem !== undefined && pem !== '')
        return { pem, source: `ConfigMap ${namespace}/${names.rootCAConfigMap}` };
    } catch (e) {
      failures.push(e);
    }
    try {
      const publicNs = names.profile.publicNamespace;
      const cm = await client.get<ConfigMap>({
        group: '',
        version: 'v1',
        resource: 'configmaps',
        namespace: publicNs,
        name: 'cluster-info',
      });
      for (const text of Object.values(cm.data ?? {})) {
        const data = /certificate-authority-data:\s*(\S+)/.exec(text)?.[1];
        if (data !== undefined)
          return { pem: decodeBase64Text(data), source: `ConfigMap ${publicNs}/cluster-info` };
      }
    } catch (e) {
      failures.push(e);
    }
    throw (
      failures.find((e) => e instanceof ApiError && e.code !== 404) ??
      new Error(
        `neither ${namespace}/${names.rootCAConfigMap} nor ${names.profile.publicNamespace}/cluster-info holds the cluster CA`,
      )
    );
  }, [version, names.rootCAConfigMap, namespace]);
}
