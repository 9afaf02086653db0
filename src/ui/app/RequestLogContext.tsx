/**
 * Hands the request log to the views through React context: the header
 * shows its size, the console lists and reopens its entries.
 */

import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { LoggedRequest, RequestLog } from '../lib/request-log';

const LogContext = createContext<RequestLog | null>(null);

export function RequestLogProvider({ log, children }: { log: RequestLog; children: ReactNode }) {
  return <LogContext.Provider value={log}>{children}</LogContext.Provider>;
}

export function useRequestLog(): RequestLog {
  const log = useContext(LogContext);
  if (log === null) throw new Error('useRequestLog: no RequestLogProvider above this component');
  return log;
}

/** The log's entries, re-rendering on every change. */
export function useLoggedRequests(): readonly LoggedRequest[] {
  const log = useRequestLog();
  return useSyncExternalStore(log.subscribe, log.getSnapshot);
}
