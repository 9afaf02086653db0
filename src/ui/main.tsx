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
import { RequestLog, recordAnswer, recordingFetch } from './lib/request-log';
import { IdentityStore, identityFetch, loadIdentities } from './lib/identity';
import { IdentityProvider } from './identity/IdentityContext';
import { servedBy, uncontrolled, untilServed, whenServed } from './lib/served';
import { EarlyAnswers, earlyFetch } from './lib/early-answers';
import { discoveryScope, readDiscovery } from './lib/discovery-cache';
import {
  afterFirstScreen,
  askedByPage,
  askFirstScreen,
  firstScreenReads,
  rememberFirstScreen,
} from './lib/first-screen';
import { preloadAccessExplanation } from './common/ErrorNotice';
import { firstRenderWaitMs, prepareFirstScreen } from './lib/first-screen-data';
import { parseRoute, startRoute } from './lib/route';
import './styles.css';

export type Connect = (profile: ProfileName) => Promise<unknown>;

export function mountApp(container: HTMLElement | null, connect: Connect): void {
  if (container === null) throw new Error('mountApp: the page has no #root element');
  applyTheme(preferences.theme());
  const log = new RequestLog();
  // The UI acts as an identity (the built-in admin unless the learner picks another in this tab); the log
  // shows its credential. A new client per identity makes every view fetch again as the new one.
  // Held like every API request until the worker serves the page (lib/served.ts).
  const identity = new IdentityStore((options) => whenServed(() => loadIdentities(options)));
  // A first visit renders the shell before the worker serves the page: its requests wait in the page until
  // then (lib/served.ts), and are logged when they go out.
  const recorded = recordingFetch(
    log,
    identityFetch(identity, (request) => fetch(request)),
  );
  const sent = (request: Request) => whenServed(() => recorded(request));
  const early = new EarlyAnswers(sent, () => identity.version());
  const transport = earlyFetch(early, sent);
  const makeClient = () => createClient({ fetch: transport });
  // A reload is served by the profile's worker already: the identity to act as and the first screen's reads
  // (discovery, the default list, …) are asked now, while React renders, not after the shell's effects; the
  // components' own requests take those answers (ConnectionGate asks the identity on a first visit). What
  // index.html asked already (first-screen.ts) is adopted rather than asked again.
  const discoveryShown = () => readDiscovery(discoveryScope(preferences.profile(), identity.current()));
  // The first screen's data (discovery, the list) is then read through the UI's transport, taking those answers
  // (first-screen-data.ts): on a reload the first render waits a moment for it, so that it shows the screen.
  const askEarly = (): Promise<void> => {
    void identity.resolve();
    const route = parseRoute(location.hash) ?? startRoute;
    const cached = discoveryShown();
    askFirstScreen(createClient({ fetch: (request) => early.ask(request) }), route, cached);
    return prepareFirstScreen(makeClient(), route, cached, identity.version());
  };
  let firstRender: Promise<unknown> = Promise.resolve();
  if (servedBy(preferences.profile())) {
    for (const asked of askedByPage()) {
      const request = new Request(asked.path, { headers: { accept: asked.accept } });
      const when = { at: asked.at ?? Date.now(), started: asked.started ?? performance.now() };
      void early.adopt(request, recordAnswer(log, request, when, asked.answer)).catch(() => undefined);
    }
    firstRender = Promise.race([
      askEarly(),
      new Promise((resolve) => setTimeout(resolve, firstRenderWaitMs)),
    ]);
  } else if (uncontrolled()) {
    // A first visit: the same reads asked now, beside the shell's first render, which runs while the worker
    // starts (ConnectionGate); they are held until the worker serves the page and leave the moment it does.
    // Until then the skeleton's status says the server is starting (styles.css), a mark cleared without a render.
    const root = document.documentElement;
    root.dataset.worker = 'starting';
    void untilServed()?.then(() => delete root.dataset.worker);
    void askEarly();
  } else {
    // After a profile switch: the same reads as soon as the profile's worker takes the page, before the shell
    // renders (the old profile's worker serves the page until then).
    const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
    const taken = () => {
      if (!servedBy(preferences.profile())) return;
      container?.removeEventListener('controllerchange', taken);
      void askEarly();
    };
    container?.addEventListener('controllerchange', taken);
  }
  // The next load of this route asks its reads from index.html, before the main script runs.
  addEventListener('pagehide', () =>
    rememberFirstScreen(
      location.hash,
      preferences.profile(),
      firstScreenReads(parseRoute(location.hash) ?? startRoute, discoveryShown()),
      identity.defaultAdminToken(),
    ),
  );
  // What the first screen leaves to a chunk of its own but a refusal shows at once: loaded once it is shown.
  void afterFirstScreen().then(preloadAccessExplanation);
  void firstRender.then(() =>
    createRoot(container).render(
      <StrictMode>
        <RequestLogProvider log={log}>
          <IdentityProvider store={identity} makeClient={makeClient}>
            <App connect={connect} />
          </IdentityProvider>
        </RequestLogProvider>
      </StrictMode>,
    ),
  );
}
