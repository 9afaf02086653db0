/**
 * Entry of the UI: mounts the React app into the page. The page hands in
 * `connect`, which starts the in-browser API server for a naming profile
 * (registers the service worker and waits for it to control the page); the
 * UI calls it first and talks to the API only through `src/client`
 * afterwards, every request passing through the request log.
 */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '../client/index';
import type { ProfileName } from '../machinery/naming';
import { App } from './App';
import { RequestLogProvider } from './app/RequestLogContext';
import { applyTheme } from './app/theme';
import { preferences } from './lib/preferences';
import { RequestLog, recordingFetch } from './lib/request-log';
import { IdentityStore, identityFetch, loadIdentities } from './lib/identity';
import { IdentityProvider } from './identity/IdentityContext';
import { servedBy } from './app/ConnectionGate';
import './styles.css';

export type Connect = (profile: ProfileName) => Promise<unknown>;

export function mountApp(container: HTMLElement | null, connect: Connect): void {
  if (container === null) throw new Error('mountApp: the page has no #root element');
  applyTheme(preferences.theme());
  const log = new RequestLog();
  // The UI acts as an identity (the built-in admin unless the learner picks another in this tab); the log
  // shows its credential. A new client per identity makes every view fetch again as the new one.
  const identity = new IdentityStore(loadIdentities);
  const transport = recordingFetch(
    log,
    identityFetch(identity, (request) => fetch(request)),
  );
  const makeClient = () => createClient({ fetch: transport });
  // A reload is served by the profile's worker already: the identity to act as (the first thing the shell
  // asks for) is asked now, beside the first render, not after it (ConnectionGate asks on a first visit).
  if (servedBy(preferences.profile())) void identity.resolve();
  createRoot(container).render(
    <StrictMode>
      <RequestLogProvider log={log}>
        <IdentityProvider store={identity} makeClient={makeClient}>
          <App connect={connect} />
        </IdentityProvider>
      </RequestLogProvider>
    </StrictMode>,
  );
}
