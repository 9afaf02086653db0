/**
 * Discovery, read once and shared by every view: the served group versions
 * and their kinds. Custom resources appear as they are defined, because the
 * provider watches CustomResourceDefinitions (when the server serves them)
 * and reads discovery again after each change.
 */

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { listWatch, type Discovery } from '../../client/index';
import { useClient } from '../client-context';

export interface DiscoveryState {
  discovery: Discovery | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

const Context = createContext<DiscoveryState | null>(null);

export function DiscoveryProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<Omit<DiscoveryState, 'reload'>>({
    discovery: undefined,
    error: undefined,
    loading: true,
  });
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    client.discovery().then(
      (discovery) => live && setState({ discovery, error: undefined, loading: false }),
      (error: unknown) => live && setState((previous) => ({ ...previous, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [client, generation]);

  const crds = useMemo(() => {
    for (const gv of state.discovery?.groupVersions ?? []) {
      if (!gv.group.startsWith('apiextensions.') || !gv.preferred) continue;
      if (gv.resources.some((r) => r.name === 'customresourcedefinitions' && r.verbs.includes('watch')))
        return { group: gv.group, version: gv.version, resource: 'customresourcedefinitions' };
    }
    return undefined;
  }, [state.discovery]);

  useEffect(() => {
    if (crds === undefined) return;
    const abort = new AbortController();
    let first = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A new CRD is served a moment after it is stored; read discovery once things settle.
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, 400);
    };
    void listWatch({
      client,
      ref: crds,
      list: async (signal) => {
        const list = await client.send<{ metadata: { resourceVersion?: string } }>(
          'GET',
          `/apis/${crds.group}/${crds.version}/customresourcedefinitions`,
          { signal, query: { limit: 1 } },
        );
        return list.body.metadata.resourceVersion ?? '';
      },
      handlers: {
        onList: () => {
          if (!first) soon();
          first = false;
        },
        onEvent: (event) => {
          if (event.type !== 'BOOKMARK') soon();
        },
      },
      signal: abort.signal,
    });
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [client, crds, reload]);

  const value = useMemo(() => ({ ...state, reload }), [state, reload]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useDiscovery(): DiscoveryState {
  const value = useContext(Context);
  if (value === null) throw new Error('useDiscovery: no DiscoveryProvider above this component');
  return value;
}
