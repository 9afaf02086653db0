/**
 * One object, live: a list-then-watch of its collection narrowed to its
 * name with a field selector, so the ownership view follows every apply,
 * from this tab or any other.
 */

import { useEffect, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { listWatch, type ResourceRef } from '../../client/index';
import { useClient } from '../client-context';

export function useLiveObject(ref: (ResourceRef & { name: string }) | undefined): KubeObject | undefined {
  const client = useClient();
  const [object, setObject] = useState<KubeObject | undefined>(undefined);
  const key = ref === undefined ? '' : JSON.stringify(ref);
  useEffect(() => {
    setObject(undefined);
    if (ref === undefined) return;
    const abort = new AbortController();
    const { name, ...collection } = ref;
    const query = { fieldSelector: `metadata.name=${name}` };
    void listWatch({
      client,
      ref: collection,
      query,
      signal: abort.signal,
      list: async () => {
        const list = await client.list(collection, query);
        setObject(list.items[0]);
        return list.metadata.resourceVersion ?? '';
      },
      handlers: {
        onList: () => undefined,
        onEvent: (event) => {
          if (event.type === 'BOOKMARK') return;
          setObject(event.type === 'DELETED' ? undefined : event.object);
        },
      },
    });
    return () => abort.abort();
    // key stands for ref.
  }, [client, key]);
  return object;
}
