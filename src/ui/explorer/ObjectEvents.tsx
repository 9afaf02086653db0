/**
 * The Events about one object, newest last, as `kubectl describe` lists
 * them: type, reason, age (of the last occurrence, on the server's clock,
 * which the workshop may have moved forward), how many times, from which
 * component, and the message. Read again when the object changes, since
 * what happens to it usually writes Events.
 */

import { useEffect, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { useClient } from '../client-context';
import { formatAge } from '../lib/age';
import { useNow } from '../hooks/useNow';

interface EventRow {
  type: string;
  reason: string;
  last: string;
  count: number;
  from: string;
  message: string;
}

interface CoreEvent extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  note?: string;
  count?: number;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
  reportingController?: string;
}

function rowOf(e: CoreEvent): EventRow {
  const last =
    e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '';
  return {
    type: e.type ?? '',
    reason: e.reason ?? '',
    last: last ?? '',
    count: e.series?.count ?? e.count ?? 1,
    from: [e.source?.component ?? e.reportingComponent ?? e.reportingController ?? '', e.source?.host ?? '']
      .filter((p) => p !== '')
      .join(', '),
    message: e.message ?? e.note ?? '',
  };
}

export function ObjectEvents({ object }: { object: KubeObject }) {
  const client = useClient();
  const [rows, setRows] = useState<EventRow[] | undefined>(undefined);
  const [offsetMs, setOffsetMs] = useState(0);
  const now = useNow(5000) + offsetMs;
  const m = object.metadata ?? {};

  useEffect(() => {
    let live = true;
    const fieldSelector = `involvedObject.kind=${object.kind ?? ''},involvedObject.name=${m.name ?? ''}`;
    client
      .list<CoreEvent>(
        {
          group: '',
          version: 'v1',
          resource: 'events',
          ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
        },
        { fieldSelector },
      )
      .then(
        (list) => {
          if (!live) return;
          const found = list.items.map(rowOf).sort((a, b) => a.last.localeCompare(b.last));
          setRows(found);
        },
        () => live && setRows([]),
      );
    // Ages read the server's clock, which may run ahead of this one.
    client.send<{ offsetMs?: number }>('GET', '/sandbox/v1/clock').then(
      (answer) => live && setOffsetMs(answer.body.offsetMs ?? 0),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, object.kind, m.namespace, m.name, m.resourceVersion]);

  return (
    <section className="object-events" aria-label="Events">
      <h3>Events</h3>
      {rows === undefined ? (
        <p role="status">Reading events…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No events.</p>
      ) : (
        <table className="events-table">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Reason</th>
              <th scope="col">Age</th>
              <th scope="col">From</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} className={r.type === 'Warning' ? 'warning' : undefined}>
                <td>{r.type}</td>
                <td>{r.reason}</td>
                <td>
                  {formatAge(r.last, now)}
                  {r.count > 1 ? ` (x${r.count})` : ''}
                </td>
                <td>{r.from}</td>
                <td className="message">{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
