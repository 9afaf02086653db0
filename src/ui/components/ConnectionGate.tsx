/**
 * Starts the in-browser API server (via the `connect` the page hands in) and
 * renders its children only once the page is served by it; until then, a
 * progress message, and on failure the reason and a retry button.
 */

import { useEffect, useState, type ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';

type Phase = { name: 'connecting' } | { name: 'connected' } | { name: 'failed'; error: unknown };

export function ConnectionGate({
  connect,
  children,
}: {
  connect: () => Promise<unknown>;
  children: ReactNode;
}) {
  const [phase, setPhase] = useState<Phase>({ name: 'connecting' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setPhase({ name: 'connecting' });
    connect().then(
      () => live && setPhase({ name: 'connected' }),
      (error: unknown) => live && setPhase({ name: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [connect, attempt]);

  if (phase.name === 'connected') return <>{children}</>;
  return (
    <main className="gate">
      <h1>Orch Sandbox</h1>
      {phase.name === 'connecting' ? (
        <p role="status">Starting the API server in this browser…</p>
      ) : (
        <>
          <ErrorNotice title="The in-browser API server did not start" error={phase.error} />
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </>
      )}
    </main>
  );
}
