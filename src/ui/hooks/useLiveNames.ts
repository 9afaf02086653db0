/**
 * The names of a kind's objects, kept current by a watch (for the namespace
 * picker, which should offer a namespace the moment anyone creates it).
 * `after`, when given, holds the first list until it resolves (the
 * explorer's picker waits for the first screen: first-screen.ts).
 */

import { useEffect, useState } from 'react';
import { listWatch, type ResourceRef } from '../../client/index';
import { useClient } from '../client-context';

export function useLiveNames(ref: ResourceRef, after?: () => Promise<void>): string[] {
  const client = useClient();
  const [names, setNames] = useState<string[]>([]);
  const key = `${ref.group}/${ref.version}/${ref.resource}/${ref.namespace ?? ''}`;
  useEffect(() => {
    const abort = new AbortController();
    let current = new Set<string>();
    const publish = () => setNames([...current].sort());
    void (after?.() ?? Promise.resolve()).then(() => {
      if (abort.signal.aborted) return;
      return listWatch({
        client,
        ref,
        signal: abort.signal,
        list: async (signal) => {
          const list = await client.send<{
            metadata: { resourceVersion?: string };
            items: { metadata?: { name?: string } }[];
          }>('GET', `/${ref.group === '' ? 'api' : `apis/${ref.group}`}/${ref.version}/${ref.resource}`, {
            signal,
          });
          current = new Set(
            list.body.items.flatMap((item) =>
              item.metadata?.name === undefined ? [] : [item.metadata.name],
            ),
          );
          return list.body.metadata.resourceVersion ?? '';
        },
        handlers: {
          onList: publish,
          onEvent: (event) => {
            const name = event.object.metadata?.name;
            if (name === undefined || event.type === 'BOOKMARK') return;
            if (event.type === 'DELETED') current.delete(name);
            else current.add(name);
            publish();
          },
        },
      });
    });
    return () => abort.abort();
    // key stands for ref; `after` is read once per list.
  }, [client, key]);
  return names;
}
