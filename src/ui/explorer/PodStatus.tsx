/**
 * A pod as its node agent reports it: the phase (with the reason a failed
 * or evicted pod carries), the node and IPs, its conditions (Initialized,
 * Ready, ContainersReady, PodScheduled — with the scheduler's message when
 * it could not place the pod), and each container's state, readiness and
 * restarts — and, on request, what a container printed (its log, or the
 * previous run's after a restart).
 */

import { useState } from 'react';
import type { KubeObject } from '../../api/meta';
import type { ContainerStatus, Pod } from '../../api/pod';
import { resourcePath } from '../../client/index';
import { useClient } from '../client-context';
import { CodeBlock } from '../common/CodeBlock';
import { ErrorNotice } from '../common/ErrorNotice';

function stateText(s: ContainerStatus['state']): string {
  if (s?.running !== undefined) return 'Running';
  if (s?.terminated !== undefined)
    return `Terminated: ${s.terminated.reason ?? ''} (exit code ${s.terminated.exitCode})`;
  if (s?.waiting !== undefined) return `Waiting: ${s.waiting.reason ?? ''}`;
  return '—';
}

function stateMessage(s: ContainerStatus['state']): string | undefined {
  return s?.waiting?.message ?? s?.terminated?.message;
}

function ContainerLog({ pod, container, previous }: { pod: Pod; container: string; previous: boolean }) {
  const client = useClient();
  const [text, setText] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const m = pod.metadata ?? {};
  const path = `${resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: m.namespace ?? '', name: m.name ?? '', subresource: 'log' })}?container=${encodeURIComponent(container)}&tailLines=500${previous ? '&previous=true' : ''}`;
  const read = () => {
    setError(undefined);
    client.raw('GET', path, { headers: { accept: 'text/plain' } }).then(
      async (response) => {
        if (response.ok) setText(await response.text());
        else {
          const body = (await response.json().catch(() => ({}))) as { message?: string };
          setError(new Error(body.message ?? `HTTP ${response.status}`));
        }
      },
      (e: unknown) => setError(e),
    );
  };
  return (
    <div className="container-log">
      <button type="button" className="secondary small" onClick={read}>
        {text === undefined ? (previous ? 'Show previous log' : 'Show log') : 'Read the log again'}
      </button>
      {error !== undefined ? <ErrorNotice title="No log" error={error} /> : null}
      {text !== undefined ? (
        <CodeBlock text={text === '' ? '(empty)' : text} label={`Log of container ${container}`} />
      ) : null}
    </div>
  );
}

export function PodStatus({ object }: { object: KubeObject }) {
  const pod = object as Pod;
  const status = pod.status ?? {};
  const deleting = (pod.metadata?.deletionTimestamp ?? null) !== null;
  const statuses = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
  const inits = new Set((pod.spec?.initContainers ?? []).map((c) => c.name));
  return (
    <section className="pod-status" aria-label="Pod status">
      <h3>Status</h3>
      <dl>
        <dt>Phase</dt>
        <dd>
          <strong>{deleting ? `Terminating (${status.phase ?? ''})` : (status.phase ?? '—')}</strong>
          {status.reason !== undefined
            ? ` — ${status.reason}${status.message !== undefined ? `: ${status.message}` : ''}`
            : ''}
        </dd>
        <dt>Node</dt>
        <dd>{pod.spec?.nodeName ?? <span className="muted">not scheduled</span>}</dd>
        <dt>IP</dt>
        <dd>{status.podIP ?? <span className="muted">none yet</span>}</dd>
      </dl>
      <h4>Conditions</h4>
      {(status.conditions ?? []).length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <table className="conditions-table">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {(status.conditions ?? []).map((c) => (
              <tr key={c.type}>
                <td>{c.type}</td>
                <td className={c.status === 'True' ? 'ok' : 'not-ok'}>{c.status}</td>
                <td>{c.reason ?? ''}</td>
                <td className="message">{c.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h4>Containers</h4>
      {statuses.length === 0 ? (
        <p className="muted">No container has been set up yet.</p>
      ) : (
        <ul className="container-statuses">
          {statuses.map((s) => (
            <li key={s.name}>
              <p>
                <strong>{s.name}</strong>
                {inits.has(s.name) ? ' (init)' : ''} — {stateText(s.state)}
                {s.ready ? ', ready' : ', not ready'}, {s.restartCount} restart
                {s.restartCount === 1 ? '' : 's'}
                <span className="muted"> · {s.image}</span>
              </p>
              {stateMessage(s.state) !== undefined ? (
                <p className="muted message">{stateMessage(s.state)}</p>
              ) : null}
              {s.lastState?.terminated !== undefined ? (
                <p className="muted">
                  Last state: Terminated: {s.lastState.terminated.reason ?? ''} (exit code{' '}
                  {s.lastState.terminated.exitCode})
                </p>
              ) : null}
              <ContainerLog pod={pod} container={s.name} previous={false} />
              {s.restartCount > 0 ? <ContainerLog pod={pod} container={s.name} previous={true} /> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
