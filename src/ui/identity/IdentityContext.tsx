/**
 * Hands the identity store to components (the header's switcher, the
 * identity view, the 403 panel) and makes every view follow an identity
 * change: the API client is rebuilt whenever the identity changes (or a
 * grant is applied), and since views fetch in effects that depend on the
 * client, each lists, watches and reads discovery again — now as the new
 * identity — instead of keeping a watch that was opened as the old one.
 */

import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { ApiClient } from '../../client/index';
import { ClientProvider } from '../client-context';
import type { ActingAs, IdentityStore } from '../lib/identity';

const Context = createContext<IdentityStore | null>(null);

export function IdentityProvider({
  store,
  makeClient,
  children,
}: {
  store: IdentityStore;
  /** Builds a client; called once per identity version. */
  makeClient: () => ApiClient;
  children: ReactNode;
}) {
  // The version alone: the default admin's arrival (no new version) renders nothing here, and so does not
  // interrupt the shell's first render, which a first visit runs as a transition (ConnectionGate, 0088).
  const version = useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.version(),
  );
  // `version` is the reason for a new client: the transport reads the store on every request anyway.
  const client = useMemo(() => makeClient(), [makeClient, version]);
  return (
    <Context.Provider value={store}>
      <ClientProvider client={client}>{children}</ClientProvider>
    </Context.Provider>
  );
}

export function useIdentityStore(): IdentityStore {
  const store = useContext(Context);
  if (store === null) throw new Error('useIdentityStore: no IdentityProvider above this component');
  return store;
}

/** The identity the UI acts as now (undefined until the default admin has been read). */
export function useActingAs(): ActingAs | undefined {
  const store = useIdentityStore();
  return useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.snapshot(),
  ).acting;
}

/** Changes whenever the identity or its grants change: a dependency for effects that ask what it may do. */
export function useIdentityVersion(): number {
  const store = useIdentityStore();
  return useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => store.snapshot(),
  ).version;
}
