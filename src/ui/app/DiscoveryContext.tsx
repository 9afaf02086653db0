/**
 * Discovery, read once and shared by every view: the served group versions
 * and their kinds. Custom resources appear as they are defined, because the
 * provider watches CustomResourceDefinitions (when the server serves them)
 * and reads discovery again after each change. On a reload the last
 * discovery this tab read (lib/discovery-cache.ts) is shown until the fresh
 * one answers; `fresh` tells the two apart. Discovery read before the first
 * render (lib/first-screen-data.ts) is shown at once, or awaited instead of
 * asked again.
 */

import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { listWatch, type Discovery } from '../../client/index';
import { useClient } from '../client-context';
import { useIdentityStore } from '../identity/IdentityContext';
import { discoveryScope, readDiscovery, writeDiscovery } from '../lib/discovery-cache';
import { afterFirstScreen } from '../lib/first-screen';
import { peekPreparedDiscovery, takePreparedDiscovery } from '../lib/first-screen-data';
import { preferences } from '../lib/preferences';

export interface DiscoveryState {
  discovery: Discovery | undefined;
  error: unknown;
  loading: boolean;
  /** Whether `discovery` was read from the server by this page (false while the tab's last one is shown). */
  fresh: boolean;
  reload: () => void;
}

const Context = createContext<DiscoveryState | null>(null);

export function DiscoveryProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const identity = useIdentityStore();
  const [generation, setGeneration] = useState(0);
  // The discovery read before the first render, when this mount showed it at once (then there is nothing to ask).
  const shownAtMount = useRef<Discovery | undefined>(undefined);
  const [state, setState] = useState<Omit<DiscoveryState, 'reload'>>(() => {
    const done = peekPreparedDiscovery(identity.version())?.done?.value;
    shownAtMount.current = done;
    if (done !== undefined) return { discovery: done, error: undefined, loading: false, fresh: true };
    return {
      discovery: readDiscovery(discoveryScope(preferences.profile(), identity.current())),
      error: undefined,
      loading: true,
      fresh: false,
    };
  });
  const reload = useCallback(() => setGeneration((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    // Taken once: a later read (another identity, a reload, a CRD change) asks the server.
    const early = takePreparedDiscovery(identity.version());
    const shown = shownAtMount.current;
    shownAtMount.current = undefined;
    // Kept for the next reload once the first screen is shown (the write is no part of it).
    const keep = (discovery: Discovery) =>
      void afterFirstScreen().then(() =>
        writeDiscovery(discoveryScope(preferences.profile(), identity.current()), discovery),
      );
    if (shown !== undefined) {
      keep(shown);
      return;
    }
    setState((previous) => ({ ...previous, loading: true }));
    const read = early?.promise.catch(() => client.discovery()) ?? client.discovery();
    read.then(
      (discovery) => {
        if (!live) return;
        // The same served kinds again (a re-read after the CRD watch's first list) keep the same object,
        // so the views do not render again for nothing.
        setState((previous) => ({
          discovery: sameDiscovery(previous.discovery, discovery) ? previous.discovery : discovery,
          error: undefined,
          loading: false,
          fresh: true,
        }));
        keep(discovery);
      },
      (error: unknown) => live && setState((previous) => ({ ...previous, error, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [client, generation, identity]);

  // The CRDs' group version as a string, so a discovery read again does not restart their watch.
  const crdsAt = useMemo(() => {
    for (const gv of state.discovery?.groupVersions ?? []) {
      if (!gv.group.startsWith('apiextensions.') || !gv.preferred) continue;
      if (gv.resources.some((r) => r.name === 'customresourcedefinitions' && r.verbs.includes('watch')))
        return gv.groupVersion;
    }
    return undefined;
  }, [state.discovery]);

  useEffect(() => {
    if (crdsAt === undefined) return;
    const [group = '', version = ''] = crdsAt.split('/');
    const crds = { group, version, resource: 'customresourcedefinitions' };
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A new CRD is served a moment after it is stored; read discovery once things settle.
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, 400);
    };
    // The watch is no part of the first screen: it starts once that is shown, rather than competing with the
    // screen's list. Its first list is then later than the discovery read, so a CRD defined in between would be
    // missed: every list (the first too) reads discovery again, which is after the list's resourceVersion and
    // so sees every CRD the watch does not.
    void afterFirstScreen().then(() => {
      if (abort.signal.aborted) return;
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
          onList: soon,
          onEvent: (event) => {
            if (event.type !== 'BOOKMARK') soon();
          },
        },
        signal: abort.signal,
      });
    });
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [client, crdsAt, reload]);

  const value = useMemo(() => ({ ...state, reload }), [state, reload]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useDiscovery(): DiscoveryState {
  const value = useContext(Context);
  if (value === null) throw new Error('useDiscovery: no DiscoveryProvider above this component');
  return value;
}

/** Whether two discoveries serve the same group versions and resources (the documents are small). */
function sameDiscovery(a: Discovery | undefined, b: Discovery): boolean {
  return (
    a !== undefined &&
    JSON.stringify(a.groupVersions) === JSON.stringify(b.groupVersions) &&
    a.failed.length === 0 &&
    b.failed.length === 0
  );
}
