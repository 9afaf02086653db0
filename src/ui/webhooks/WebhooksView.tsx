/**
 * The Webhooks view: the webhook backends the sandbox hosts (a workshop
 * has no webhook server) — list, create and edit as YAML or JSON, delete —
 * and "wire it up", which creates the webhook configuration sending a
 * resource's writes to one of them. Calls and their exact AdmissionReview
 * bodies then show in the Traces view. A link may open the editor with a
 * backend's document (`text`).
 */

import { useState } from 'react';
import type { ViewProps } from '../app/view-props';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { useAsync } from '../hooks/useAsync';
import { backendUrl, deleteBackend, listBackends, type WebhookBackend } from './backend-api';
import { BackendEditor } from './BackendEditor';
import { WireUpCard } from './WireUpCard';
import './webhooks.css';

function addressOf(b: WebhookBackend): string {
  const s = b.service ?? (b.namespace !== undefined ? { name: b.name, namespace: b.namespace } : undefined);
  const service = s !== undefined ? ` or service ${s.namespace}/${s.name}` : '';
  return `${backendUrl(b.name)}${service}`;
}

export function WebhooksView({ params, active }: ViewProps) {
  const client = useClient();
  const backends = useAsync(() => listBackends(client), [client]);
  const [editing, setEditing] = useState<WebhookBackend | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const items = backends.value ?? [];

  async function remove(name: string) {
    setError(undefined);
    try {
      await deleteBackend(client, name);
      if (editing?.name === name) setEditing(undefined);
      backends.reload();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <main className="workshop-view webhooks-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <h2>Webhook backends</h2>
      <p className="hint">
        Backends answer admission webhook calls inside the sandbox. A configuration reaches one through its
        URL, <code>https://&lt;name&gt;.webhooks.sandbox.invalid/</code>, or a service reference it declares.
      </p>
      <div className="workshop-columns">
        <div className="workshop-left">
          <section className="card" aria-labelledby="webhook-backends-heading">
            <h3 id="webhook-backends-heading">Backends</h3>
            {backends.error !== undefined ? (
              <ErrorNotice title="The backends could not be read" error={backends.error} />
            ) : items.length === 0 ? (
              <p>{backends.loading ? 'Loading…' : 'No backend yet: save one from a sample.'}</p>
            ) : (
              <table className="webhook-backends">
                <caption className="visually-hidden">Declared webhook backends</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Address</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((b) => (
                    <tr key={b.name}>
                      <td>{b.name}</td>
                      <td>{b.kind}</td>
                      <td>
                        <code>{addressOf(b)}</code>
                      </td>
                      <td className="row">
                        <button
                          type="button"
                          className="secondary"
                          onClick={() => setEditing(b)}
                          aria-label={`Edit ${b.name}`}
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="danger"
                          onClick={() => void remove(b.name)}
                          aria-label={`Delete ${b.name}`}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {error !== undefined ? <ErrorNotice title="The backend was not deleted" error={error} /> : null}
            {editing !== undefined ? (
              <button type="button" className="secondary" onClick={() => setEditing(undefined)}>
                New backend
              </button>
            ) : null}
          </section>
          <BackendEditor editing={editing} linkedText={params['text']} onSaved={() => backends.reload()} />
        </div>
        <div className="workshop-right">
          <WireUpCard backends={items} selected={editing?.name} />
        </div>
      </div>
    </main>
  );
}
