/**
 * Hands the API client to components through React context, so that
 * components never build their own and tests can pass a fake one.
 */

import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../client/index';

const ClientContext = createContext<ApiClient | null>(null);

export function ClientProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ClientContext.Provider value={client}>{children}</ClientContext.Provider>;
}

export function useClient(): ApiClient {
  const client = useContext(ClientContext);
  if (client === null) throw new Error('useClient: no ClientProvider above this component');
  return client;
}
