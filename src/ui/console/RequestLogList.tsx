/**
 * The request log: every request the UI sent, newest first, with method,
 * path, status and duration, filterable by text. Choosing one shows it in
 * full beside the list.
 */

import { useState } from 'react';
import { formatClock } from '../lib/age';
import type { LoggedRequest } from '../lib/request-log';
import { auditIdOf, isWrite } from '../trace/trace-model';
import { routeHref } from '../lib/route';

interface Props {
  entries: readonly LoggedRequest[];
  selected: number | undefined;
  onSelect: (id: number) => void;
  onClear: () => void;
}

export function RequestLogList({ entries, selected, onSelect, onClear }: Props) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const shown = entries
    .filter((e) => needle === '' || `${e.method} ${e.path} ${e.status ?? ''}`.toLowerCase().includes(needle))
    .slice(-200)
    .reverse();
  return (
    <section className="request-log" aria-label="Request log">
      <div className="toolbar">
        <h3>Request log</h3>
        <span className="muted">{entries.length} requests</span>
        <button type="button" className="secondary small" onClick={onClear}>
          Clear
        </button>
      </div>
      <label>
        <span className="visually-hidden">Filter requests</span>
        <input
          type="search"
          placeholder="Filter: method, path or status…"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      <ol className="log-entries">
        {shown.map((entry) => (
          <li key={entry.id} aria-current={entry.id === selected ? 'true' : undefined}>
            <button type="button" className="log-entry" onClick={() => onSelect(entry.id)}>
              <span className="numeric muted">{formatClock(entry.startedAt)}</span>
              <span className={`method method-${entry.method.toLowerCase()}`}>{entry.method}</span>
              <span className="log-path">{entry.path}</span>
              <span
                className={`status-code ${entry.status === undefined ? '' : entry.status < 400 ? 'ok' : 'failed'}`}
              >
                {entry.error !== undefined
                  ? 'failed'
                  : entry.streamed && entry.status === 200
                    ? 'stream'
                    : (entry.status ?? '…')}
              </span>
            </button>
            {isWrite(entry.method) && auditIdOf(entry.responseHeaders) !== undefined ? (
              <a
                className="log-trace-link"
                href={routeHref('traces', { id: auditIdOf(entry.responseHeaders) })}
                aria-label={`Admission trace of ${entry.method} ${entry.path}`}
                title="Open its admission trace"
              >
                trace
              </a>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
