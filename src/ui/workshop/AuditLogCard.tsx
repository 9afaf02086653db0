/**
 * The live audit log: the newest audit events the sandbox recorded under
 * its audit policy (the browser's stand-in for `--audit-log-path`), read
 * again every two seconds while the view is shown. Each row is one event —
 * stage, level, verb, user, object and response code — and opens to the
 * whole `Event` with its annotations. The cluster's own components (nodes,
 * scheduler, controllers) are hidden unless asked for: with simulated nodes
 * they are most of the log.
 */

import { useEffect, useState } from 'react';
import type { AuditEvent } from '../../api/audit';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';

function objectOf(e: AuditEvent): string {
  const r = e.objectRef;
  if (r === undefined) return e.requestURI;
  const resource = [r.resource, r.subresource].filter((x) => x !== undefined && x !== '').join('/');
  return [r.namespace, resource, r.name].filter((x) => x !== undefined && x !== '').join(' ');
}

export function AuditLogCard({ active = true }: { active?: boolean }) {
  const client = useClient();
  const [events, setEvents] = useState<AuditEvent[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [error, setError] = useState<unknown>(undefined);
  const [components, setComponents] = useState(false);

  useEffect(() => {
    if (!active) return;
    const load = () =>
      client
        .send<{ enabled: boolean; items: AuditEvent[] }>(
          'GET',
          `/sandbox/v1/audit?limit=50&components=${components ? 'show' : 'hide'}`,
        )
        .then(
          (answer) => {
            setEnabled(answer.body.enabled);
            setEvents([...answer.body.items].reverse());
            setError(undefined);
          },
          (e: unknown) => setError(e),
        );
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, 2000);
    return () => clearInterval(timer);
  }, [active, client, components]);

  return (
    <section className="card" aria-labelledby="audit-log-heading">
      <h3 id="audit-log-heading">Audit log</h3>
      <label>
        <input type="checkbox" checked={components} onChange={(e) => setComponents(e.target.checked)} /> Show
        the cluster&apos;s own components (nodes, scheduler, controllers)
      </label>
      {!enabled ? (
        <p className="muted" role="status">
          The audit policy is empty: nothing is audited. Set one under Admission and audit.
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="Audit log not read" error={error} /> : null}
      <ul className="audit-log" aria-label="Newest audit events first">
        {events.map((e) => (
          <li key={`${e.auditID}-${e.stage}`}>
            <details>
              <summary>
                <code>{e.stage}</code> <span className="muted">{e.level}</span> {e.verb}{' '}
                <strong>{objectOf(e)}</strong> by {e.user.username}
                {e.impersonatedUser !== undefined ? ` as ${e.impersonatedUser.username}` : ''}
                {e.responseStatus !== undefined ? ` → ${e.responseStatus.code}` : ''}
              </summary>
              <pre>{JSON.stringify(e, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
