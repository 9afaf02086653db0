/**
 * Hands the request log to the views through React context: the header
 * shows its size, the console lists and reopens its entries.
 */

import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
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

/**
 * How many requests the log holds, for the header's counter. Every request changes the log two or three times
 * (sent, answered, body kept), and a `useSyncExternalStore` reader renders synchronously on each: six such
 * renders and commits fell between the first screen's answers on a first visit (decision 0088). The count is
 * set in a transition instead: React draws it in one low-priority render after the urgent ones.
 */
export function useLoggedCount(): number {
  const log = useRequestLog();
  const [count, setCount] = useState(() => log.getSnapshot().length);
  useEffect(() => {
    const update = () => startTransition(() => setCount(log.getSnapshot().length));
    update();
    return log.subscribe(update);
  }, [log]);
  return count;
}
