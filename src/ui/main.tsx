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
import { ClientProvider } from './client-context';
import { RequestLogProvider } from './app/RequestLogContext';
import { applyTheme } from './app/theme';
import { preferences } from './lib/preferences';
import { RequestLog, recordingFetch } from './lib/request-log';
import './styles.css';

export type Connect = (profile: ProfileName) => Promise<unknown>;

export function mountApp(container: HTMLElement | null, connect: Connect): void {
  if (container === null) throw new Error('mountApp: the page has no #root element');
  applyTheme(preferences.theme());
  const log = new RequestLog();
  const client = createClient({ fetch: recordingFetch(log) });
  createRoot(container).render(
    <StrictMode>
      <RequestLogProvider log={log}>
        <ClientProvider client={client}>
          <App connect={connect} />
        </ClientProvider>
      </RequestLogProvider>
    </StrictMode>,
  );
}
