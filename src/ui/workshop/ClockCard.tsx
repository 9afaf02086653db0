/**
 * The server's clock (`/sandbox/v1/clock`): the time the server and its
 * simulated cluster run on, how far it is ahead of this computer's, and
 * buttons that move it forward — back-offs pass, CronJobs fire, tokens and
 * certificates expire, sleeping containers wake, without waiting. It never
 * goes back.
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';

interface ClockState {
  now: string;
  offsetMs: number;
  offset: string;
}

const steps = ['10s', '1m', '5m', '1h', '24h'];

export function ClockCard({ active = true }: { active?: boolean }) {
  const client = useClient();
  const [clock, setClock] = useState<ClockState | undefined>(undefined);
  const [custom, setCustom] = useState('90s');
  const [error, setError] = useState<unknown>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);

  const load = () =>
    client.send<ClockState>('GET', '/sandbox/v1/clock').then(
      (answer) => setClock(answer.body),
      (e: unknown) => setError(e),
    );
  useEffect(() => {
    if (!active) return;
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, 5000);
    return () => clearInterval(timer);
    // load is new each render; what matters is whether the view is shown.
  }, [active]);

  async function advance(duration: string) {
    setError(undefined);
    try {
      const answer = await client.send<ClockState>('POST', '/sandbox/v1/clock', {
        body: { advance: duration },
      });
      setClock(answer.body);
      setNote(`Moved forward ${duration}.`);
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="card" aria-labelledby="clock-heading">
      <h3 id="clock-heading">Clock</h3>
      <p className="muted">
        The server and its simulated nodes run on this clock. Move it forward to let back-offs pass, tokens
        expire or CronJobs fire without waiting.
      </p>
      {clock === undefined ? (
        <p role="status">Reading the clock…</p>
      ) : (
        <dl className="clock-state">
          <dt>Server time</dt>
          <dd>{clock.now.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</dd>
          <dt>Ahead by</dt>
          <dd aria-label="Clock offset">{clock.offsetMs === 0 ? 'nothing (real time)' : clock.offset}</dd>
        </dl>
      )}
      <div className="row" role="group" aria-label="Move the clock forward">
        {steps.map((s) => (
          <button key={s} type="button" className="secondary small" onClick={() => void advance(s)}>
            +{s}
          </button>
        ))}
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void advance(custom.trim());
        }}
      >
        <label>
          By{' '}
          <input
            value={custom}
            size={8}
            onChange={(e) => setCustom(e.target.value)}
            aria-describedby="clock-hint"
          />
        </label>
        <button type="submit">Move forward</button>
      </form>
      <p id="clock-hint" className="muted">
        A duration such as 90s, 15m or 2h30m.
      </p>
      {note !== undefined ? (
        <p className="success" role="status">
          {note}
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="The clock did not move" error={error} /> : null}
    </section>
  );
}
