/**
 * One trace by Audit-Id: read from `/sandbox/v1/traces/<id>`, and replaced
 * by the live feed's copy when that one is newer (a request still in
 * flight when the page asked completes later, with its status code).
 */

import { useEffect, useState } from 'react';
import type { AdmissionTraceRecord } from '../../api/admission-trace';
import type { ApiClient } from '../../client/index';

export interface TraceLookup {
  record: AdmissionTraceRecord | undefined;
  error: unknown;
  loading: boolean;
}

export function useTraceRecord(
  client: ApiClient,
  auditId: string | undefined,
  fromFeed: AdmissionTraceRecord | undefined,
): TraceLookup {
  const [state, setState] = useState<TraceLookup>({ record: undefined, error: undefined, loading: false });

  useEffect(() => {
    if (auditId === undefined || auditId === '') {
      setState({ record: undefined, error: undefined, loading: false });
      return;
    }
    let current = true;
    setState({ record: undefined, error: undefined, loading: true });
    client.send<AdmissionTraceRecord>('GET', `/sandbox/v1/traces/${encodeURIComponent(auditId)}`).then(
      (answer) => current && setState({ record: answer.body, error: undefined, loading: false }),
      (error: unknown) => current && setState({ record: undefined, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [client, auditId]);

  // The feed's copy is at least as fresh: it is sent when the request completes.
  if (fromFeed !== undefined && (state.record === undefined || state.record.code === undefined))
    return { record: fromFeed, error: undefined, loading: false };
  return state;
}
