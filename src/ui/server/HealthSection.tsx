/**
 * Server → Health: `/livez`, `/readyz` and `/healthz` asked verbosely every
 * five seconds while shown, each named check with its state, the verdict
 * and the HTTP status. Ticking a check adds `exclude=<name>` to that
 * endpoint's query, and the request line shows exactly what is sent, so the
 * query is learned by using it (an unknown name shows the server's `warn:`
 * line). The raw body is one click away.
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { healthEndpoints, healthPath, parseHealth, type HealthEndpoint, type HealthReport } from './health';

const refreshMs = 5000;

const purpose: Record<HealthEndpoint, string> = {
  livez: 'Is the process alive? A failing livez tells the host to restart the server.',
  readyz: 'Should it get traffic? readyz also fails while the server shuts down, before it stops listening.',
  healthz: 'The older combined endpoint, kept for clients that still ask it.',
};

interface Answer {
  path: string;
  status: number;
  body: string;
  report: HealthReport;
}

function useHealth(endpoint: HealthEndpoint, excluded: readonly string[], active: boolean) {
  const client = useClient();
  const [answer, setAnswer] = useState<Answer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const path = healthPath(endpoint, excluded);
  useEffect(() => {
    if (!active) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const response = await client.raw('GET', path, {
          headers: { accept: 'text/plain' },
          signal: abort.signal,
        });
        const body = await response.text();
        setAnswer({ path, status: response.status, body, report: parseHealth(body) });
        setError(undefined);
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(e instanceof Error ? e.message : String(e));
      }
      if (!abort.signal.aborted) timer = setTimeout(() => void read(), refreshMs);
    };
    void read();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [client, path, active]);
  return { answer, error };
}

function EndpointCard({ endpoint, active }: { endpoint: HealthEndpoint; active: boolean }) {
  const [excluded, setExcluded] = useState<string[]>([]);
  const [extra, setExtra] = useState('');
  const { answer, error } = useHealth(endpoint, excluded, active);
  const [showBody, setShowBody] = useState(false);
  const titleId = `health-${endpoint}-title`;
  const report = answer?.report;
  const verdict =
    report?.passed === undefined
      ? answer === undefined
        ? 'asking…'
        : `HTTP ${answer.status}`
      : report.passed
        ? 'passed'
        : 'failed';
  // Names the server listed, plus excluded ones it did not (so an unknown name can be unticked again).
  const names = [...(report?.checks.map((c) => c.name) ?? [])];
  for (const name of excluded) if (!names.includes(name)) names.push(name);
  const toggle = (name: string) =>
    setExcluded((current) =>
      current.includes(name) ? current.filter((n) => n !== name) : [...current, name],
    );

  return (
    <section className="card health-card" aria-labelledby={titleId} data-endpoint={endpoint}>
      <h3 id={titleId}>
        /{endpoint}{' '}
        <span
          className={`health-verdict ${report?.passed === false ? 'failed' : report?.passed ? 'passed' : ''}`}
          data-testid="verdict"
        >
          {verdict}
        </span>
      </h3>
      <p className="muted">{purpose[endpoint]}</p>
      <p className="health-request">
        <code data-testid="request-line">GET {answer?.path ?? healthPath(endpoint, excluded)}</code>
        {answer !== undefined ? <span className="muted"> → {answer.status}</span> : null}
      </p>
      {error !== undefined ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <ul className="health-checks" aria-label={`${endpoint} checks`}>
        {names.map((name) => {
          const check = report?.checks.find((c) => c.name === name);
          const state = check?.state ?? 'unknown';
          return (
            <li key={name} className={`check-${state}`} data-check={name}>
              <span className="check-mark" aria-hidden="true">
                {state === 'ok' ? '✓' : state === 'failed' ? '✕' : state === 'excluded' ? '−' : '?'}
              </span>
              <span className="check-name">{name}</span>
              <span className="check-state">{check?.detail ?? 'not listed by the server'}</span>
              <label className="check-exclude">
                <input type="checkbox" checked={excluded.includes(name)} onChange={() => toggle(name)} />{' '}
                exclude
                <span className="visually-hidden"> {name}</span>
              </label>
            </li>
          );
        })}
      </ul>
      {report !== undefined && report.warnings.length > 0 ? (
        <ul className="health-warnings">
          {report.warnings.map((w) => (
            <li key={w}>warn: {w}</li>
          ))}
        </ul>
      ) : null}
      {report?.passed !== undefined ? (
        <p className="health-final" data-testid="final-line">
          {endpoint} check {report.passed ? 'passed' : 'failed'}
        </p>
      ) : null}
      <form
        className="health-extra"
        onSubmit={(event) => {
          event.preventDefault();
          const name = extra.trim();
          if (name !== '' && !excluded.includes(name)) setExcluded([...excluded, name]);
          setExtra('');
        }}
      >
        <label>
          Exclude another name{' '}
          <input
            value={extra}
            onChange={(e) => setExtra(e.target.value)}
            autoComplete="off"
            placeholder="e.g. no-such-check"
          />
        </label>{' '}
        <button type="submit" className="secondary">
          Add
        </button>
      </form>
      <button
        type="button"
        className="link-button"
        aria-expanded={showBody}
        onClick={() => setShowBody(!showBody)}
      >
        {showBody ? 'Hide the raw body' : 'Show the raw body'}
      </button>
      {showBody && answer !== undefined ? <pre className="health-body">{answer.body}</pre> : null}
    </section>
  );
}

export function HealthSection({ active }: { active: boolean }) {
  return (
    <div className="health-section">
      <p className="muted">
        Each endpoint runs its named checks and answers 200 when all pass, 500 when one fails. Without{' '}
        <code>?verbose</code> a passing answer is just <code>ok</code>; <code>exclude</code> skips a check (it
        still appears, marked excluded), and{' '}
        <code>
          /{'{endpoint}'}/{'{check}'}
        </code>{' '}
        asks one check alone. Refreshed every {refreshMs / 1000} s while shown.
      </p>
      <div className="health-grid">
        {healthEndpoints.map((endpoint) => (
          <EndpointCard key={endpoint} endpoint={endpoint} active={active} />
        ))}
      </div>
    </div>
  );
}
