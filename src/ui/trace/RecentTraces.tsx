/**
 * The recent admission traces, newest first and live: each a link to its
 * trace with time, method, path, answer, a dry-run label and the step that
 * denied it, if any; filterable by text.
 */

import { formatClock } from '../lib/age';
import { useState } from 'react';
import type { AdmissionTraceRecord } from '../../api/admission-trace';
import { routeHref } from '../lib/route';
import { deniedStep, isDryRun } from './trace-model';

interface Props {
  records: readonly AdmissionTraceRecord[];
  selected: string | undefined;
  live: boolean;
}

export function RecentTraces({ records, selected, live }: Props) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = records.filter(
    (r) =>
      needle === '' ||
      `${r.method} ${r.path} ${r.code ?? ''} ${r.user} ${deniedStep(r)?.name ?? ''}`
        .toLowerCase()
        .includes(needle),
  );
  return (
    <section className="recent-traces" aria-labelledby="recent-traces-title">
      <div className="toolbar">
        <h3 id="recent-traces-title">Recent traces</h3>
        <span className={`live-status ${live ? 'live-live' : ''}`}>
          <span className="live-dot" aria-hidden="true" /> {live ? 'live' : 'not live'}
        </span>
      </div>
      <label>
        <span className="visually-hidden">Filter traces</span>
        <input
          type="search"
          placeholder="Filter: method, path, status, user or plugin…"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      {shown.length === 0 ? (
        <p className="muted">
          {records.length === 0
            ? 'No write has reached admission yet. Create or change an object (explorer, editor or console) and its trace appears here.'
            : 'No trace matches the filter.'}
        </p>
      ) : (
        <ol className="trace-list">
          {shown.map((r) => {
            const denied = deniedStep(r);
            return (
              <li key={r.auditId}>
                <a
                  className="trace-entry"
                  href={routeHref('traces', { id: r.auditId })}
                  aria-current={r.auditId === selected ? 'true' : undefined}
                >
                  <time className="numeric muted" dateTime={r.received}>
                    {formatClock(Date.parse(r.received))}
                  </time>
                  <span className={`method method-${r.method.toLowerCase()}`}>{r.method}</span>
                  {/* A cut path keeps its whole text (query included) in the tooltip. */}
                  <span className="log-path" title={r.path}>
                    {r.path.replace(/\?.*$/, '')}
                  </span>
                  <span
                    className={`status-code ${r.code === undefined ? '' : r.code < 400 ? 'ok' : 'failed'}`}
                  >
                    {r.code ?? '…'}
                  </span>
                  {isDryRun(r) ? <span className="trace-badge trace-dry-run">dry run</span> : null}
                  {denied !== undefined ? (
                    <span className="trace-entry-denied">denied by {denied.name}</span>
                  ) : null}
                </a>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
