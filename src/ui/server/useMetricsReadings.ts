/**
 * Reads `/metrics` every two seconds while the metrics section is shown and
 * the page is visible, as the current identity, and keeps the last readings
 * (two minutes) for the charts. A hidden section or tab sends nothing; the
 * readings already taken stay, so the charts resume where they stopped.
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { parseExposition } from './prometheus';
import type { Reading } from './metrics-model';

export const pollMs = 2000;
export const capacity = 61;

export interface MetricsReadings {
  readings: readonly Reading[];
  /** The newest answer's body, for the raw view. */
  text: string | undefined;
  /** The last failure (an HTTP status line or a network error), cleared by the next success. */
  error: string | undefined;
}

function usePageVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const follow = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', follow);
    return () => document.removeEventListener('visibilitychange', follow);
  }, []);
  return visible;
}

export function useMetricsReadings(active: boolean): MetricsReadings {
  const client = useClient();
  const visible = usePageVisible();
  const [state, setState] = useState<MetricsReadings>({ readings: [], text: undefined, error: undefined });

  useEffect(() => {
    if (!active || !visible) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const response = await client.raw('GET', '/metrics', {
          headers: { accept: 'text/plain' },
          signal: abort.signal,
        });
        const text = await response.text();
        if (!response.ok) {
          setState((s) => ({
            ...s,
            error: `${response.status} ${response.statusText}: ${text.slice(0, 300)}`,
          }));
        } else {
          const reading: Reading = { at: Date.now(), exposition: parseExposition(text) };
          setState((s) => ({ readings: [...s.readings, reading].slice(-capacity), text, error: undefined }));
        }
      } catch (error) {
        if (abort.signal.aborted) return;
        setState((s) => ({ ...s, error: error instanceof Error ? error.message : String(error) }));
      }
      // The next reading is timed from this answer, so a slow server is never asked twice at once.
      if (!abort.signal.aborted) timer = setTimeout(() => void read(), pollMs);
    };
    void read();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [client, active, visible]);

  return state;
}
