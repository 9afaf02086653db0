/**
 * Starts the in-browser API server (via the `connect` the page hands in)
 * for the profile this browser chose, and renders its children when the
 * page is served by a worker of that profile or, on a first visit (no
 * worker controls the page yet), at once: the real shell renders and lays
 * out while the worker script downloads and starts, its API requests held
 * in the page until the worker takes over (lib/served.ts, decision 0112).
 * On failure, the reason and a retry button. After a profile switch the old
 * worker still controls the page while the new one installs, so the gate
 * waits for the controller's script URL to name the profile, showing a
 * starting shell (the header, the explorer's panes as skeletons, the
 * progress in words) meanwhile.
 */

import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { ErrorNotice } from '../common/ErrorNotice';
import { preferences } from '../lib/preferences';
import type { Connect } from '../main';
import { SkeletonRows } from '../explorer/SkeletonRows';
import { useIdentityStore } from '../identity/IdentityContext';
import { servedBy, uncontrolled } from '../lib/served';

type Phase = { name: 'connecting' } | { name: 'connected' } | { name: 'failed'; error: unknown };

const switchTimeoutMs = 30_000;

export function ConnectionGate({ connect, children }: { connect: Connect; children: ReactNode }) {
  // A reload is served by the profile's worker already: the shell renders at once (its requests go to that
  // worker) while connect() only checks for an update, instead of a frame of the starting shell first. A first
  // visit renders it at once too, while the worker starts, its requests held until the worker serves (0112).
  const [phase, setPhase] = useState<Phase>(() => initialPhase(preferences.profile()));
  const [attempt, setAttempt] = useState(0);

  const identity = useIdentityStore();

  useEffect(() => {
    let live = true;
    const profile = preferences.profile();
    if (!servedBy(profile)) setPhase(initialPhase(profile));
    connect(profile)
      .then(() => controlledBy(profile))
      .then(
        () => {
          // The identity to act as is the first thing the shell asks the server for: asked as soon as the
          // page is served by the profile's worker, not after the shell's render (a reload asked in main.tsx).
          void identity.resolve();
          // After a profile switch the shell's first render is the largest of the page (every component's code
          // runs cold): as a transition React renders it in slices, so the identities' answer, which comes
          // meanwhile, sends the first screen's reads at once instead of after the whole render (0088). A first
          // visit rendered it before the worker took over, and this changes nothing.
          if (live) startTransition(() => setPhase({ name: 'connected' }));
        },
        (error: unknown) => live && setPhase({ name: 'failed', error }),
      );
    return () => {
      live = false;
    };
  }, [connect, attempt, identity]);

  if (phase.name === 'connected') return <>{children}</>;
  if (phase.name === 'connecting') return <StartingShell />;
  return (
    <main className="gate">
      <h1>Orch Sandbox</h1>
      {
        <>
          <ErrorNotice title="The in-browser API server did not start" error={phase.error} />
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </>
      }
    </main>
  );
}

/**
 * The app's frame while the worker starts (a first visit takes a few seconds on a busy machine): the header
 * and, for the explorer, its panes in grey with the status in words — the shell at once, not a blank page.
 */
function StartingShell() {
  const route = location.hash.replace(/^#\/?/, '');
  const explorer = route === '' || route.startsWith('explorer');
  const status = 'Starting the API server in this browser…';
  return (
    <div className="app">
      <header className="header">
        <h1>Orch Sandbox</h1>
      </header>
      <div className="view">
        {explorer ? (
          <div className="explorer">
            <aside className="sidebar">
              <ul className="skeleton-nav" aria-hidden="true">
                {[70, 55, 80, 60, 75, 50, 65, 58].map((w, i) => (
                  <li key={i}>
                    <span className="skeleton-bar" style={{ width: `${w}%` }} />
                  </li>
                ))}
              </ul>
            </aside>
            <main className="content">
              <SkeletonRows status={status} />
            </main>
            <aside className="side-panel" />
          </div>
        ) : (
          <main className="gate">
            <p role="status">
              <span className="spinner" aria-hidden="true" /> {status}
            </p>
          </main>
        )}
      </div>
    </div>
  );
}

/**
 * The shell at once when the profile's worker serves the page or none controls it yet (a first visit: its
 * requests wait for the worker, lib/served.ts); the starting shell while another profile's worker still does.
 */
function initialPhase(profile: string): Phase {
  return servedBy(profile) || uncontrolled() ? { name: 'connected' } : { name: 'connecting' };
}

/** Resolves once the page's controller is the worker of `profile`. */
async function controlledBy(profile: string): Promise<void> {
  const container = navigator.serviceWorker;
  const matches = () => servedBy(profile);
  if (matches()) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      container.removeEventListener('controllerchange', check);
      reject(new Error(`The ${profile} profile's worker did not take over; reload the page to retry.`));
    }, switchTimeoutMs);
    function check() {
      if (!matches()) return;
      clearTimeout(timer);
      container.removeEventListener('controllerchange', check);
      resolve();
    }
    container.addEventListener('controllerchange', check);
    check();
  });
}
