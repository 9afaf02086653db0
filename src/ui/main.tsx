/**
 * Entry of the UI: mounts the React app into the page. The page hands in
 * `connect`, which starts the in-browser API server (registers the service
 * worker and waits for it to control the page); the UI calls it first and
 * talks to the API only through `src/client` afterwards.
 */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '../client/index';
import { App } from './App';
import { ClientProvider } from './client-context';
import './styles.css';

export function mountApp(container: HTMLElement | null, connect: () => Promise<unknown>): void {
  if (container === null) throw new Error('mountApp: the page has no #root element');
  createRoot(container).render(
    <StrictMode>
      <ClientProvider client={createClient()}>
        <App connect={connect} />
      </ClientProvider>
    </StrictMode>,
  );
}
