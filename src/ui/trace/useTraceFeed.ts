/**
 * The recent admission traces, kept current: the live stream
 * (`/sandbox/v1/traces?watch=true`) is opened first and the list read
 * after, so no record completing in between is missed; records are merged
 * by Audit-Id, newest first. A stream that ends (server restart, host
 * switch) is reopened after a pause while the view is mounted.
 */

import { useEffect, useState } from 'react';
import type { AdmissionTraceRecord } from '../../api/admission-trace';
import { ApiError, errorFromResponse, type ApiClient } from '../../client/index';
import { mergeRecords } from './trace-model';

export interface TraceFeed {
  records: readonly AdmissionTraceRecord[];
  /** True while the live stream is open. */
  live: boolean;
  /** The last failure to list or stream (cleared by the next success). */
  error: unknown;
}

const retryMs = 3000;

export function useTraceFeed(client: ApiClient): TraceFeed {
  const [records, setRecords] = useState<readonly AdmissionTraceRecord[]>([]);
  const [live, setLive] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const add = (incoming: AdmissionTraceRecord[]) => setRecords((known) => mergeRecords(known, incoming));

    let retry = true;
    async function follow(): Promise<void> {
      try {
        const response = await client.raw('GET', '/sandbox/v1/traces?watch=true', {
          headers: { accept: 'application/x-ndjson' },
          signal: controller.signal,
        });
        if (!response.ok) throw await errorFromResponse(response);
        if (response.body === null) throw new Error('the trace stream has no body');
        setLive(true);
        const listed = await client.send<{ items: AdmissionTraceRecord[] }>('GET', '/sandbox/v1/traces', {
          query: { limit: '200' },
        });
        add(listed.body.items);
        setError(undefined);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += value;
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          const parsed = lines
            .filter((l) => l.trim() !== '')
            .map((l) => JSON.parse(l) as AdmissionTraceRecord);
          if (parsed.length > 0) add(parsed);
        }
      } catch (e) {
        if (controller.signal.aborted) return;
        setError(e);
        // A refusal (an identity without access to the sandbox API) stays one until the identity changes.
        if (e instanceof ApiError && e.code >= 400 && e.code < 500) retry = false;
      }
      setLive(false);
      if (controller.signal.aborted || !retry) return;
      timer = setTimeout(() => void follow(), retryMs);
    }

    void follow();
    return () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [client]);

  return { records, live, error };
}
