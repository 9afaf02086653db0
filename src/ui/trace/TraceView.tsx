/**
 * The admission trace view (`#/traces?id=<Audit-Id>`): the recent traces,
 * live, beside the chosen one drawn in full. Every "open trace" link in the
 * request log, the editor and the console lands here with the answer's
 * Audit-Id. A write that never reached admission (refused earlier, or a
 * read) has no trace, and the view says why.
 */

import { useClient } from '../client-context';
import type { ViewProps } from '../app/view-props';
import { ErrorNotice } from '../common/ErrorNotice';
import { RecentTraces } from './RecentTraces';
import { TraceDetail } from './TraceDetail';
import { useTraceFeed } from './useTraceFeed';
import { useTraceRecord } from './useTraceRecord';

export function TraceView({ params, active }: ViewProps) {
  const client = useClient();
  const feed = useTraceFeed(client);
  const id = params['id'];
  const lookup = useTraceRecord(
    client,
    id,
    feed.records.find((r) => r.auditId === id),
  );
  return (
    <main className="trace-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <section className="trace-main" aria-label="Admission trace">
        <h2>Admission trace</h2>
        {id === undefined || id === '' ? (
          <p className="muted">
            Choose a trace from the list, or open one from a write: the request log, the editor&apos;s result
            and the console&apos;s answer link to the trace of their <code>Audit-Id</code>. A trace shows
            every admission step the server ran for the request — plugins, webhooks and policies, in order —
            with what each decided and changed.
          </p>
        ) : lookup.record !== undefined ? (
          <TraceDetail record={lookup.record} />
        ) : lookup.loading ? (
          <p role="status">
            <span className="spinner" aria-hidden="true" /> Reading the trace…
          </p>
        ) : lookup.error !== undefined ? (
          <ErrorNotice title={`No trace for Audit-Id ${id}`} error={lookup.error} />
        ) : null}
      </section>
      <aside className="trace-side" aria-label="Recent traces">
        <RecentTraces records={feed.records} selected={id} live={feed.live} />
        {feed.error !== undefined && !feed.live ? (
          <ErrorNotice title="The live trace list is not available" error={feed.error} />
        ) : null}
      </aside>
    </main>
  );
}
